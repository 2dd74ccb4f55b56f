package dev.minitrace.views.report;

import dev.minitrace.converter.util.CountTable;
import java.util.Arrays;

/**
 * Calling context trees in primitive columns: a node per distinct call path (thread root, then
 * method by method), with the calls that took the path, their time, the part of it spent in the
 * method itself, and the allocations made directly in it. Every thread has its own root; a merged
 * tree is built from them at the end. The number of nodes is bounded: a call whose path would need
 * a node beyond the bound is counted in its parent's {@link #OVERFLOW} child, so memory stays
 * bounded for any trace and the report says how much went there.
 */
final class CallTree {
    /** The method index of a thread's root. */
    static final int ROOT = -1;
    /** The method index of the node that takes the calls beyond the node bound. */
    static final int OVERFLOW = -2;
    /** The method index of the node that stands for pruned children on the page. */
    static final int PRUNED = -3;

    // A node's counters, summed by merge, then what it is.
    static final int CALLS = 0;
    static final int TIME = 1;
    static final int SELF = 2;
    static final int ALLOCS = 3;
    private static final int PARENT = 4;
    private static final int METHOD = 5;
    /** 1 when the node's method also occurs above it on its path (a recursive activation). */
    private static final int RECURSIVE = 6;
    /**
     * The child that {@link #child} returned last for the node (0: none, as node 0 is a root):
     * a loop calls the same method again and again, and this answers those calls without a probe
     * of the hash table, which misses the cache on a tree of a million nodes.
     */
    private static final int LAST_CHILD = 7;

    private final int maxNodes;
    /**
     * The nodes, keyed by (parent node, method index); a root by a negative key of its own, so
     * that roots and children never share one.
     */
    final CountTable nodes = new CountTable(LAST_CHILD + 1, 1024);
    private long roots;

    CallTree(int maxNodes) {
        this.maxNodes = maxNodes;
    }

    /** A new root (a thread's, or the merged tree's). */
    int root() {
        return add(-1 - roots++, -1, ROOT, false);
    }

    /** The child of {@code node} for {@code methodIndex}, made if needed (or the overflow child). */
    int child(int node, int methodIndex) {
        int last = (int) nodes.get(node, LAST_CHILD);
        if (last != 0 && nodes.get(last, METHOD) == methodIndex) {
            return last;
        }
        long key = ((long) node << 32) | (methodIndex & 0xFFFF_FFFFL);
        int c = nodes.find(key);
        if (c != CountTable.FULL) {
            nodes.set(node, LAST_CHILD, c);
            return c;
        }
        if (method(node) == OVERFLOW) {
            return node;
        }
        if (size() >= maxNodes) {
            long okey = ((long) node << 32) | (OVERFLOW & 0xFFFF_FFFFL);
            c = nodes.find(okey);
            return c != CountTable.FULL ? c : add(okey, node, OVERFLOW, false);
        }
        boolean rec = false;
        for (int p = node; p >= 0 && !rec; p = parent(p)) {
            rec = method(p) == methodIndex;
        }
        c = add(key, node, methodIndex, rec);
        nodes.set(node, LAST_CHILD, c);
        return c;
    }

    private int add(long key, int p, int m, boolean rec) {
        int n = nodes.addRow(key);
        nodes.set(n, PARENT, p);
        nodes.set(n, METHOD, m);
        nodes.set(n, RECURSIVE, rec ? 1 : 0);
        return n;
    }

    /** The number of nodes. */
    int size() {
        return nodes.rows();
    }

    /** The parent of {@code node}, -1 for a root. */
    int parent(int node) {
        return (int) nodes.get(node, PARENT);
    }

    /** The method index of {@code node}, or {@link #ROOT}, {@link #OVERFLOW}. */
    int method(int node) {
        return (int) nodes.get(node, METHOD);
    }

    /** Whether {@code node}'s method also occurs above it on its path. */
    boolean recursive(int node) {
        return nodes.get(node, RECURSIVE) != 0;
    }

    /**
     * Adds node {@code from} of {@code other} and its subtree to node {@code into} of this tree,
     * path by path (iteratively: call paths can be thousands of frames deep).
     */
    void merge(CallTree other, int from, int into, int[][] childLists) {
        int[] src = {from};
        int[] dst = {into};
        int top = 1;
        while (top > 0) {
            top--;
            int f = src[top];
            int t = dst[top];
            for (int c = CALLS; c <= ALLOCS; c++) {
                nodes.add(t, c, other.nodes.get(f, c));
            }
            int[] kids = childLists[f];
            if (kids == null) {
                continue;
            }
            if (top + kids.length > src.length) {
                src = Arrays.copyOf(src, Math.max(src.length * 2, top + kids.length));
                dst = Arrays.copyOf(dst, src.length);
            }
            for (int k : kids) {
                src[top] = k;
                dst[top] = child(t, other.method(k));
                top++;
            }
        }
    }

    /** Calls counted in {@link #OVERFLOW} nodes. */
    long overflowCalls() {
        long n = 0;
        for (int i = 0; i < size(); i++) {
            if (method(i) == OVERFLOW) {
                n += nodes.get(i, CALLS);
            }
        }
        return n;
    }

    /** The children of every node, as arrays (null for a leaf), for walks from the roots. */
    int[][] childLists() {
        int size = size();
        int[] count = new int[size];
        for (int i = 0; i < size; i++) {
            if (parent(i) >= 0) {
                count[parent(i)]++;
            }
        }
        int[][] lists = new int[size][];
        int[] fill = new int[size];
        for (int i = 0; i < size; i++) {
            int p = parent(i);
            if (p >= 0) {
                if (lists[p] == null) {
                    lists[p] = new int[count[p]];
                }
                lists[p][fill[p]++] = i;
            }
        }
        return lists;
    }
}
