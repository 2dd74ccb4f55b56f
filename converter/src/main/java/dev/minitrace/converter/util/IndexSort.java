package dev.minitrace.converter.util;

/**
 * Stable sorting of an index permutation by primitive keys, without boxing. Used to put a
 * thread's buffered events in sequence order while keeping parallel arrays.
 */
public final class IndexSort {
    private IndexSort() {
    }

    /** True when {@code key[0..n)} is already in non-decreasing order. */
    public static boolean isSorted(long[] key, int n) {
        for (int i = 1; i < n; i++) {
            if (key[i] < key[i - 1]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The indices {@code 0..n-1} ordered by {@code key} ascending, as {@link #byKey}, in linear time
     * when the keys are distinct and dense (a thread's sequence numbers: consecutive integers,
     * a few missing, arriving in runs out of order): each index is placed at its key's offset from
     * the smallest key. Falls back to the stable merge sort for repeated or sparse keys; with
     * distinct keys both orders are the same.
     */
    public static int[] byDenseKey(long[] key, int n) {
        if (n == 0) {
            return new int[0];
        }
        long min = key[0];
        long max = key[0];
        for (int i = 1; i < n; i++) {
            long k = key[i];
            min = Math.min(min, k);
            max = Math.max(max, k);
        }
        long range = max - min + 1;
        if (range <= 0 || range > 2L * n + 1024) {
            return byKey(key, n);
        }
        int[] at = new int[(int) range]; // index + 1 of the key's event, 0 where no event has the key
        for (int i = 0; i < n; i++) {
            int k = (int) (key[i] - min);
            if (at[k] != 0) {
                return byKey(key, n); // a repeated key: keep the stable order of the general sort
            }
            at[k] = i + 1;
        }
        int[] order = new int[n];
        int m = 0;
        for (int k = 0; k < at.length; k++) {
            if (at[k] != 0) {
                order[m++] = at[k] - 1;
            }
        }
        return order;
    }

    /** The indices {@code 0..n-1} ordered by {@code key} ascending, stable (equal keys keep their index order). */
    public static int[] byKey(long[] key, int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        int[] tmp = new int[n];
        mergeSort(a, tmp, 0, n, key);
        return a;
    }

    private static void mergeSort(int[] a, int[] tmp, int lo, int hi, long[] key) {
        if (hi - lo < 24) {
            for (int i = lo + 1; i < hi; i++) {
                int v = a[i];
                int j = i - 1;
                while (j >= lo && key[a[j]] > key[v]) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = v;
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        mergeSort(a, tmp, lo, mid, key);
        mergeSort(a, tmp, mid, hi, key);
        if (key[a[mid - 1]] <= key[a[mid]]) {
            return;
        }
        System.arraycopy(a, lo, tmp, lo, hi - lo);
        int i = lo;
        int j = mid;
        for (int k = lo; k < hi; k++) {
            if (j >= hi || (i < mid && key[tmp[i]] <= key[tmp[j]])) {
                a[k] = tmp[i++];
            } else {
                a[k] = tmp[j++];
            }
        }
    }

    /** Reorders {@code arr[0..n)} so that {@code arr'[i] = arr[order[i]]}. */
    public static void permute(long[] arr, int[] order, int n, long[] scratch) {
        for (int i = 0; i < n; i++) {
            scratch[i] = arr[order[i]];
        }
        System.arraycopy(scratch, 0, arr, 0, n);
    }

    /** As {@link #permute(long[], int[], int, long[])} for ints. */
    public static void permute(int[] arr, int[] order, int n, int[] scratch) {
        for (int i = 0; i < n; i++) {
            scratch[i] = arr[order[i]];
        }
        System.arraycopy(scratch, 0, arr, 0, n);
    }
}
