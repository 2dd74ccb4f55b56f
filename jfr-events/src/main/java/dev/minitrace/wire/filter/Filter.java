package dev.minitrace.wire.filter;

/**
 * One JEP 520-style filter: {@code pkg.Class}, {@code pkg.Class::method}, {@code ::method} or
 * {@code @pkg.Annotation}, with {@code *} wildcards in package, class and method names.
 *
 * <p>Name matching: {@code *} matches any run of characters except {@code .}; a pattern that ends
 * in {@code .*} matches every class of that package and its subpackages. A class pattern also
 * matches the nested classes of the classes it matches ({@code a.B} matches {@code a.B$C}).
 * An annotation filter matches a method that is annotated with it or whose class is.
 */
public final class Filter {
    private final String text;
    /** Class pattern with dots; null for "any class". */
    private final Glob classGlob;
    /** Method name pattern; null for "any method". */
    private final Glob methodGlob;
    /** Annotation descriptor glob ({@code Lpkg/Ann;}) in dotted form; null when not an annotation filter. */
    private final Glob annotationGlob;

    private Filter(String text, Glob classGlob, Glob methodGlob, Glob annotationGlob) {
        this.text = text;
        this.classGlob = classGlob;
        this.methodGlob = methodGlob;
        this.annotationGlob = annotationGlob;
    }

    /**
     * Parses one filter.
     *
     * @throws IllegalArgumentException with a message that says what was expected
     */
    public static Filter parse(String text) {
        String t = text.trim();
        if (t.isEmpty()) {
            throw new IllegalArgumentException("empty filter; expected pkg.Class, pkg.Class::method, ::method or @pkg.Annotation");
        }
        if (t.startsWith("@")) {
            String name = t.substring(1);
            checkQualifiedName(t, name, "@pkg.Annotation");
            return new Filter(t, null, null, Glob.ofClass(name));
        }
        int sep = t.indexOf("::");
        if (sep < 0) {
            if (t.contains(":")) {
                throw new IllegalArgumentException("filter '" + t + "': a single ':'; expected pkg.Class::method");
            }
            checkQualifiedName(t, t, "pkg.Class");
            return new Filter(t, Glob.ofClass(t), null, null);
        }
        String cls = t.substring(0, sep);
        String method = t.substring(sep + 2);
        if (method.isEmpty()) {
            throw new IllegalArgumentException("filter '" + t + "': no method name after '::'; expected pkg.Class::method or ::method");
        }
        if (!isIdentifierPattern(method) || method.indexOf('.') >= 0) {
            throw new IllegalArgumentException("filter '" + t + "': '" + method + "' is not a method name; expected letters, digits, $, _, <, > or *");
        }
        Glob methodGlob = Glob.ofName(method);
        if (cls.isEmpty()) {
            return new Filter(t, null, methodGlob, null);
        }
        checkQualifiedName(t, cls, "pkg.Class::method");
        return new Filter(t, Glob.ofClass(cls), methodGlob, null);
    }

    private static void checkQualifiedName(String filter, String name, String expected) {
        if (name.isEmpty() || name.startsWith(".") || name.endsWith(".") || name.contains("..")
                || !isIdentifierPattern(name.replace('.', '_'))) {
            throw new IllegalArgumentException("filter '" + filter + "': '" + name + "' is not a qualified name; expected " + expected);
        }
    }

    private static boolean isIdentifierPattern(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(Character.isJavaIdentifierPart(c) || c == '*' || c == '<' || c == '>')) {
                return false;
            }
        }
        return !s.isEmpty();
    }

    /** True when this filter names its classes by a class or package pattern (not {@code ::method} nor an annotation). */
    public boolean namesClasses() {
        return classGlob != null;
    }

    /** True when this filter selects whole classes or methods by annotation only. */
    public boolean isAnnotationFilter() {
        return annotationGlob != null;
    }

    /**
     * Whether this filter could match some method of {@code className} (dotted), without knowing
     * annotations; annotation filters answer true (they need the class's annotations).
     */
    public boolean mayMatchClass(String className) {
        return annotationGlob != null || classGlob == null || classGlob.matchesClass(className);
    }

    /**
     * Whether this filter matches a method.
     *
     * @param className dotted binary class name
     * @param classAnnotations dotted names of the class's annotations
     * @param methodName method name as in the class file
     * @param methodAnnotations dotted names of the method's annotations
     */
    public boolean matches(String className, java.util.List<String> classAnnotations, String methodName,
            java.util.List<String> methodAnnotations) {
        if (annotationGlob != null) {
            return anyMatches(classAnnotations) || anyMatches(methodAnnotations);
        }
        if (classGlob != null && !classGlob.matchesClass(className)) {
            return false;
        }
        return methodGlob == null || methodGlob.matchesName(methodName);
    }

    private boolean anyMatches(java.util.List<String> annotations) {
        for (int i = 0; i < annotations.size(); i++) {
            if (annotationGlob.matchesName(annotations.get(i))) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return text;
    }
}
