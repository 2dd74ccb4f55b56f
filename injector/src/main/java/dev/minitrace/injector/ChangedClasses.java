package dev.minitrace.injector;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * The classes a transformer has rewritten, by class loader and internal name. Held weakly by
 * loader: once a loader is collected its classes are gone, and so is their entry, so an
 * application that defines and drops classes all the time does not grow this set (a set of
 * name-and-loader-hash strings did, by some 100 bytes per class ever defined).
 */
final class ChangedClasses {
    private final Map<ClassLoader, Set<String>> byLoader = new WeakHashMap<>();
    /** The bootstrap loader's (a WeakHashMap key cannot be null; the agent never rewrites them, but stay exact). */
    private final Set<String> boot = new HashSet<>();

    synchronized void add(ClassLoader loader, String internalName) {
        set(loader, true).add(internalName);
    }

    synchronized void remove(ClassLoader loader, String internalName) {
        Set<String> s = set(loader, false);
        if (s != null) {
            s.remove(internalName);
        }
    }

    synchronized boolean contains(ClassLoader loader, String internalName) {
        Set<String> s = set(loader, false);
        return s != null && s.contains(internalName);
    }

    /** The classes currently rewritten whose loader is still alive. */
    synchronized int size() {
        int n = boot.size();
        for (Set<String> s : byLoader.values()) {
            n += s.size();
        }
        return n;
    }

    private Set<String> set(ClassLoader loader, boolean create) {
        if (loader == null) {
            return boot;
        }
        Set<String> s = byLoader.get(loader);
        if (s == null && create) {
            s = new HashSet<>();
            byLoader.put(loader, s);
        }
        return s;
    }
}
