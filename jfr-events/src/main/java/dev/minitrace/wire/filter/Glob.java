package dev.minitrace.wire.filter;

/**
 * A name pattern with {@code *} wildcards: {@code *} matches any run of characters except
 * {@code .}; a class pattern ending in {@code .*} matches a package and all its subpackages.
 */
final class Glob {
    private final String pattern;
    /** For class patterns ending in {@code .*}: the package prefix including the final dot. */
    private final String packagePrefix;

    private Glob(String pattern, String packagePrefix) {
        this.pattern = pattern;
        this.packagePrefix = packagePrefix;
    }

    static Glob ofClass(String pattern) {
        if (pattern.endsWith(".*")) {
            return new Glob(pattern, pattern.substring(0, pattern.length() - 1));
        }
        return new Glob(pattern, null);
    }

    static Glob ofName(String pattern) {
        return new Glob(pattern, null);
    }

    /** Matches a dotted class name, its nested classes included. */
    boolean matchesClass(String className) {
        if (packagePrefix != null) {
            String prefix = packagePrefix.substring(0, packagePrefix.length() - 1);
            if (prefix.indexOf('*') < 0) {
                return className.startsWith(packagePrefix);
            }
            // A wildcard inside the package part: match the prefix against the leading segments.
            int dots = count(prefix, '.') + 1;
            int cut = nthDot(className, dots);
            return cut > 0 && glob(prefix, 0, className.substring(0, cut), 0);
        }
        if (glob(pattern, 0, className, 0)) {
            return true;
        }
        int dollar = className.indexOf('$', className.lastIndexOf('.') + 1);
        return dollar > 0 && glob(pattern, 0, className.substring(0, dollar), 0);
    }

    /** Matches a plain name (method or annotation). */
    boolean matchesName(String name) {
        if (packagePrefix != null) {
            return matchesClass(name);
        }
        return glob(pattern, 0, name, 0);
    }

    private static int count(String s, char c) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == c) {
                n++;
            }
        }
        return n;
    }

    /** Index of the n-th dot (1-based) in s, or -1. */
    private static int nthDot(String s, int n) {
        int from = -1;
        for (int i = 0; i < n; i++) {
            from = s.indexOf('.', from + 1);
            if (from < 0) {
                return -1;
            }
        }
        return from;
    }

    private static boolean glob(String p, int pi, String s, int si) {
        while (pi < p.length()) {
            char c = p.charAt(pi);
            if (c == '*') {
                for (int k = si; k <= s.length(); k++) {
                    if (glob(p, pi + 1, s, k)) {
                        return true;
                    }
                    if (k < s.length() && s.charAt(k) == '.') {
                        return false;
                    }
                }
                return false;
            }
            if (si >= s.length() || s.charAt(si) != c) {
                return false;
            }
            pi++;
            si++;
        }
        return si == s.length();
    }
}
