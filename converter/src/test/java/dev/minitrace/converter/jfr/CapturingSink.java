package dev.minitrace.converter.jfr;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link RecordingSink} that keeps every method event as a line
 * {@code type thread sequence time methodId bci} (thread by name when declared, else its key) and
 * every corrupt MethodBuffer report (and object events and class declarations), for exact comparison.
 */
final class CapturingSink implements RecordingSink {
    final List<String> methodEvents = new ArrayList<>();
    final List<String> corrupt = new ArrayList<>();
    /** Object events as {@code type thread sequence time classKey identityHash bci} (classKey in hex). */
    final List<String> objectEvents = new ArrayList<>();
    /** Class declarations as {@code classKey(hex) name}, in order. */
    final List<String> classes = new ArrayList<>();
    final Map<Long, String> threadNames = new HashMap<>();

    @Override
    public void chunkBegin(JfrChunk chunk) {
    }

    @Override
    public void thread(long threadKey, long javaThreadId, String name, boolean virtual) {
        threadNames.put(threadKey, name);
    }

    @Override
    public void classDefinition(long classKey, String className) {
        classes.add(Long.toHexString(classKey) + " " + className);
    }

    @Override
    public void methodDefinition(int methodId, String className, String methodName, String descriptor, int returnBci) {
    }

    @Override
    public void methodEvent(int type, long threadKey, long sequence, long timeNanos, int methodId, int bci) {
        methodEvents.add(type + " " + threadNames.getOrDefault(threadKey, Long.toString(threadKey)) + " " + sequence + " "
                + timeNanos + " " + methodId + " " + bci);
    }

    @Override
    public void objectEvent(int type, long threadKey, long sequence, long timeNanos, long classKey, int identityHash, int bci) {
        objectEvents.add(type + " " + threadNames.getOrDefault(threadKey, Long.toString(threadKey)) + " " + sequence + " "
                + timeNanos + " " + Long.toHexString(classKey) + " " + identityHash + " " + bci);
    }

    @Override
    public void tracedMethod(long methodKey, String className, String methodName, String descriptor) {
    }

    @Override
    public void methodTrace(long threadKey, long startNanos, long durationNanos, long methodKey) {
    }

    @Override
    public void garbageCollection(long gcId, String name, String cause, long startNanos, long durationNanos) {
    }

    @Override
    public void gcPause(long gcId, String name, long startNanos, long durationNanos) {
    }

    @Override
    public void corruptMethodBuffer(long threadKey, int recordCount, String reason) {
        corrupt.add(threadNames.getOrDefault(threadKey, Long.toString(threadKey)) + " " + recordCount + ": " + reason);
    }

    @Override
    public void dataLoss(long amountBytes) {
    }

    @Override
    public void chunkEnd(JfrChunk chunk, long bytesDone) {
    }
}
