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
