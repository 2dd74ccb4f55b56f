package dev.minitrace.views.report;

import dev.minitrace.converter.util.LongIntMap;
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

    private final int maxNodes;
    private final LongIntMap children;
    int[] parent = new int[1024];
    int[] method = new int[1024];
    long[] calls = new long[1024];
    long[] time = new long[1024];
    long[] self = new long[1024];
    long[] allocs = new long[1024];
    /** True when the node's method also occurs above it on its path (a recursive activation). */
    boolean[] recursive = new boolean[1024];
    int size;

    CallTree(int maxNodes) {
        this.maxNodes = maxNodes;
        this.children = new LongIntMap(4096);
    }

    /** A new root (a thread's, or the merged tree's). */
    int root() {
        return add(-1, ROOT, false);
    }

    /** The child of {@code node} for {@code methodIndex}, made if needed (or the overflow child). */
    int child(int node, int methodIndex) {
        long key = ((long) node << 32) | (methodIndex & 0xFFFF_FFFFL);
        int c = children.get(key);
        if (c != LongIntMap.MISSING) {
            return c;
        }
        if (method[node] == OVERFLOW) {
            return node;
        }
        if (size >= maxNodes) {
            long okey = ((long) node << 32) | (OVERFLOW & 0xFFFF_FFFFL);
            c = children.get(okey);
            if (c == LongIntMap.MISSING) {
                c = add(node, OVERFLOW, false);
                children.put(okey, c);
            }
            return c;
        }
        boolean rec = false;
        for (int p = node; p >= 0 && !rec; p = parent[p]) {
            rec = method[p] == methodIndex;
        }
        c = add(node, methodIndex, rec);
        children.put(key, c);
        return c;
    }

    private int add(int p, int m, boolean rec) {
        if (size == parent.length) {
            int n = size * 2;
            parent = Arrays.copyOf(parent, n);
            method = Arrays.copyOf(method, n);
            calls = Arrays.copyOf(calls, n);
            time = Arrays.copyOf(time, n);
            self = Arrays.copyOf(self, n);
            allocs = Arrays.copyOf(allocs, n);
            recursive = Arrays.copyOf(recursive, n);
        }
        parent[size] = p;
        method[size] = m;
        recursive[size] = rec;
        return size++;
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
            calls[t] += other.calls[f];
            time[t] += other.time[f];
            self[t] += other.self[f];
            allocs[t] += other.allocs[f];
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
                dst[top] = child(t, other.method[k]);
                top++;
            }
        }
    }

    /** Calls counted in {@link #OVERFLOW} nodes. */
    long overflowCalls() {
        long n = 0;
        for (int i = 0; i < size; i++) {
            if (method[i] == OVERFLOW) {
                n += calls[i];
            }
        }
        return n;
    }

    /** The children of every node, as arrays (null for a leaf), for walks from the roots. */
    int[][] childLists() {
        int[] count = new int[size];
        for (int i = 0; i < size; i++) {
            if (parent[i] >= 0) {
                count[parent[i]]++;
            }
        }
        int[][] lists = new int[size][];
        int[] fill = new int[size];
        for (int i = 0; i < size; i++) {
            int p = parent[i];
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
