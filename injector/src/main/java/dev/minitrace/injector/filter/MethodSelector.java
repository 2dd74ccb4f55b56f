package dev.minitrace.injector.filter;

import dev.minitrace.wire.filter.Filter;
import java.util.List;

/**
 * Decides which methods are traced: a method is traced when the include list is empty or one
 * include filter matches it, and no exclude filter matches it.
 */
public final class MethodSelector {
    private final List<Filter> includes;
    private final List<Filter> excludes;
    private final boolean needsAnnotations;

    /** Creates a selector; both lists are copied. */
    public MethodSelector(List<Filter> includes, List<Filter> excludes) {
        this.includes = List.copyOf(includes);
        this.excludes = List.copyOf(excludes);
        boolean ann = false;
        for (Filter f : this.includes) {
            ann |= f.isAnnotationFilter();
        }
        for (Filter f : this.excludes) {
            ann |= f.isAnnotationFilter();
        }
        this.needsAnnotations = ann;
    }

    /**
     * The selection among the JDK's classes: only include filters that name classes or packages
     * ({@code java.util.*}, {@code java.util.HashMap::put}) reach them, so an empty include list,
     * {@code ::toString} or an annotation filter never trace the JDK. Null when none does.
     */
    public MethodSelector forJdk() {
        List<Filter> named = new java.util.ArrayList<>();
        for (Filter f : includes) {
            if (f.namesClasses()) {
                named.add(f);
            }
        }
        return named.isEmpty() ? null : new MethodSelector(named, excludes);
    }

    /** True when some filter needs the annotations of classes and methods. */
    public boolean needsAnnotations() {
        return needsAnnotations;
    }

    /** A cheap first test on the class name alone: false means no method of the class is traced. */
    public boolean mayTraceClass(String className) {
        if (includes.isEmpty()) {
            return true;
        }
        for (Filter f : includes) {
            if (f.mayMatchClass(className)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the method is traced. */
    public boolean traces(String className, List<String> classAnnotations, String methodName, List<String> methodAnnotations) {
        boolean in = includes.isEmpty();
        for (int i = 0; !in && i < includes.size(); i++) {
            in = includes.get(i).matches(className, classAnnotations, methodName, methodAnnotations);
        }
        if (!in) {
            return false;
        }
        for (int i = 0; i < excludes.size(); i++) {
            if (excludes.get(i).matches(className, classAnnotations, methodName, methodAnnotations)) {
                return false;
            }
        }
        return true;
    }

    /**
     * What decides the selection of {@code className}'s methods: the filters that may match the
     * class (a filter that cannot match the class name cannot match any of its methods). Two
     * selectors give a class the same methods when its keys are equal, so a change of selection
     * only needs to retransform the classes whose key changed.
     */
    public String classKey(String className) {
        StringBuilder b = new StringBuilder(includes.isEmpty() ? "*" : "+");
        for (Filter f : includes) {
            if (f.mayMatchClass(className)) {
                b.append(f).append(';');
            }
        }
        b.append('-');
        for (Filter f : excludes) {
            if (f.mayMatchClass(className)) {
                b.append(f).append(';');
            }
        }
        return b.toString();
    }

    /** The include filters. */
    public List<Filter> includes() {
        return includes;
    }

    /** The exclude filters. */
    public List<Filter> excludes() {
        return excludes;
    }
}
