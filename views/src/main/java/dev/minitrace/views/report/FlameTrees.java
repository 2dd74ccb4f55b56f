package dev.minitrace.views.report;

import java.util.Arrays;
import java.util.PriorityQueue;

/**
 * Chooses the part of a call tree the page shows: the {@code budget} heaviest nodes, where a node's
 * weight is the larger of its share of the calls and its share of the time below it. A child
 * never outweighs its parent, so the chosen nodes form a tree from the root; each chosen node's
 * children that were not chosen are summed into one "other frames" node. So the page stays small
 * for any trace and still accounts for every call.
 */
final class FlameTrees {
    /** A chosen tree in pre-order columns; {@code parent} indexes into these columns (-1: the root). */
    static final class Shown {
        int size;
        int[] parent;
        /** The tree's method index, {@link CallTree#ROOT}, {@link CallTree#OVERFLOW} or {@link CallTree#PRUNED}. */
        int[] method;
        /** For a pruned node: how many frames it stands for. */
        int[] pruned;
        long[] calls;
        long[] time;
        long[] self;
        long[] allocs;
        long[] allocsBelow;

        Shown(int capacity) {
            parent = new int[capacity];
            method = new int[capacity];
            pruned = new int[capacity];
            calls = new long[capacity];
            time = new long[capacity];
            self = new long[capacity];
            allocs = new long[capacity];
            allocsBelow = new long[capacity];
        }
    }

    private final CallTree tree;
    private final int[][] children;
    /** Per node: calls in its subtree, time of its subtree (its own time; for a root its children's), allocations in it. */
    private final long[] subCalls;
    private final long[] subTime;
    private final long[] subAllocs;

    FlameTrees(CallTree tree) {
        this.tree = tree;
        this.children = tree.childLists();
        int n = tree.size();
        subCalls = new long[n];
        subTime = new long[n];
        subAllocs = new long[n];
        // children always come after their parent, so one backward pass sums every subtree
        for (int i = n - 1; i >= 0; i--) {
            subCalls[i] += tree.nodes.get(i, CallTree.CALLS);
            subAllocs[i] += tree.nodes.get(i, CallTree.ALLOCS);
            if (tree.method(i) != CallTree.ROOT) {
                subTime[i] = tree.nodes.get(i, CallTree.TIME);
            }
            int p = tree.parent(i);
            if (p >= 0) {
                subCalls[p] += subCalls[i];
                subAllocs[p] += subAllocs[i];
                if (tree.method(p) == CallTree.ROOT) {
                    subTime[p] += subTime[i];
                }
            }
        }
    }

    /** Calls in the subtree of {@code node}. */
    long calls(int node) {
        return subCalls[node];
    }

    /** The tree below {@code root} cut to {@code budget} nodes (plus the pruned-frames nodes). */
    Shown choose(int root, int budget) {
        double calls = Math.max(1, subCalls[root]);
        double time = Math.max(1, subTime[root]);
        boolean[] chosen = new boolean[tree.size()];
        PriorityQueue<long[]> queue = new PriorityQueue<>((a, b) -> Double.compare(Double.longBitsToDouble(b[0]), Double.longBitsToDouble(a[0])));
        queue.add(new long[] {Double.doubleToLongBits(1.0), root});
        int taken = 0;
        while (!queue.isEmpty() && taken < budget) {
            int n = (int) queue.poll()[1];
            chosen[n] = true;
            taken++;
            int[] kids = children[n];
            if (kids != null) {
                for (int k : kids) {
                    double w = Math.max(subCalls[k] / calls, subTime[k] / time);
                    queue.add(new long[] {Double.doubleToLongBits(w), k});
                }
            }
        }
        Shown s = new Shown(taken * 2 + 1);
        int[] stack = new int[16];
        int[] shownParent = new int[16];
        int top = 0;
        stack[top] = root;
        shownParent[top++] = -1;
        while (top > 0) {
            top--;
            int n = stack[top];
            int at = add(s, shownParent[top], tree.method(n));
            s.calls[at] = tree.nodes.get(n, CallTree.CALLS);
            s.time[at] = subTime[n];
            s.self[at] = tree.method(n) == CallTree.ROOT ? 0 : tree.nodes.get(n, CallTree.SELF);
            s.allocs[at] = tree.nodes.get(n, CallTree.ALLOCS);
            s.allocsBelow[at] = subAllocs[n];
            int[] kids = children[n];
            if (kids == null) {
                continue;
            }
            int prunedAt = -1;
            for (int k : kids) {
                if (chosen[k]) {
                    if (top == stack.length) {
                        stack = Arrays.copyOf(stack, top * 2);
                        shownParent = Arrays.copyOf(shownParent, top * 2);
                    }
                    stack[top] = k;
                    shownParent[top++] = at;
                } else {
                    if (prunedAt < 0) {
                        prunedAt = add(s, at, CallTree.PRUNED);
                    }
                    s.pruned[prunedAt]++;
                    s.calls[prunedAt] += subCalls[k];
                    s.time[prunedAt] += subTime[k];
                    s.self[prunedAt] += subTime[k];
                    s.allocsBelow[prunedAt] += subAllocs[k];
                }
            }
        }
        return s;
    }

    private static int add(Shown s, int parent, int method) {
        if (s.size == s.parent.length) {
            int n = s.size * 2;
            s.parent = Arrays.copyOf(s.parent, n);
            s.method = Arrays.copyOf(s.method, n);
            s.pruned = Arrays.copyOf(s.pruned, n);
            s.calls = Arrays.copyOf(s.calls, n);
            s.time = Arrays.copyOf(s.time, n);
            s.self = Arrays.copyOf(s.self, n);
            s.allocs = Arrays.copyOf(s.allocs, n);
            s.allocsBelow = Arrays.copyOf(s.allocsBelow, n);
        }
        s.parent[s.size] = parent;
        s.method[s.size] = method;
        return s.size++;
    }
}
