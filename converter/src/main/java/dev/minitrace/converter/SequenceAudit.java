package dev.minitrace.converter;

import java.util.List;

/**
 * Checks each thread's written records against its sequence numbers: a gap is records lost, a
 * repeated number a duplicate, a step back a record written after its successors (which the
 * ordering never does; counted so that a regression cannot pass unseen). Runs on whichever thread
 * writes; reports counts, and the warnings about them are worded here only.
 */
final class SequenceAudit {
    long gaps;
    long duplicates;
    long outOfOrder;

    /** Accounts for the entries of {@code b} (normalized), the next ones written for {@code t}. */
    void account(ThreadState t, EventBuffer b) {
        long last = t.lastSequence;
        if (b.placed && b.count > 0) {
            // Placed without gaps (normalized): consecutive sequences, so only the first one can
            // be a gap, a duplicate or a step back from what was written before.
            long first = b.seq(b.start);
            if (last == Long.MIN_VALUE || first > last) {
                if (last != Long.MIN_VALUE && first > last + 1) {
                    gaps += first - last - 1;
                }
                t.lastSequence = b.seq(b.size - 1);
                return;
            }
        }
        for (int i = b.start; i < b.size; i++) {
            long s = b.seq(i);
            if (last != Long.MIN_VALUE) {
                if (s == last) {
                    duplicates++;
                } else if (s < last) {
                    outOfOrder++;
                } else if (s > last + 1) {
                    gaps += s - last - 1;
                }
            }
            if (s > last) {
                last = s;
            }
        }
        t.lastSequence = last;
    }

    /** Adds the warnings; true when records were lost. */
    boolean warn(List<String> w) {
        if (gaps > 0) {
            w.add(gaps + " minitrace event(s) missing (gaps in per-thread sequence numbers that no later chunk filled)");
        }
        if (outOfOrder > 0) {
            w.add(outOfOrder + " event(s) were written after later events of their thread (a defect of the converter:"
                    + " please report it)");
        }
        if (duplicates > 0) {
            w.add(duplicates + " event(s) repeat a sequence number of their thread");
        }
        return gaps > 0;
    }
}
