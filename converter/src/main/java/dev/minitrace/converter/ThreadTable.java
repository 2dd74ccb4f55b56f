package dev.minitrace.converter;

import dev.minitrace.converter.jfr.RecordingSink;
import dev.minitrace.converter.mtlog.MtlogFormat;
import dev.minitrace.converter.mtlog.MtlogInfo;
import dev.minitrace.converter.util.LongIntMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The threads and ids of a conversion: thread states by JFR thread key and which ones
 * {@code --threads} selects; output class ids, given densely from 1 in order of first use, with
 * names resolved at the end (a class can be declared after its first use); agent method ids and
 * which are used; {@code jdk.MethodTrace} methods, numbered from {@link #TRACED_METHOD_BASE}.
 * Fills the INFO tables, and words the warnings about ids that stayed unresolved.
 */
final class ThreadTable {
    /** First id of the methods of jdk.MethodTrace, above every agent method id (u32). */
    static final long TRACED_METHOD_BASE = 1L << 32;
    private static final int SMALL_KEYS = 1 << 20;

    private final Set<String> wanted;
    private final LongIntMap threadIndex = new LongIntMap(256);
    private final List<ThreadState> threads = new ArrayList<>();
    private ThreadState[] sortedThreads = new ThreadState[0];
    private ThreadState lastThread;
    /** Threads by key for the common small keys (a direct index instead of a hash lookup per event). */
    private ThreadState[] threadsBySmallKey = new ThreadState[256];

    private final Map<Long, String> classNames = new HashMap<>();
    private final LongIntMap classIds = new LongIntMap(1024);
    /** Agent class id → output class id + 1 (0: not seen yet), for the common small ids. */
    private int[] agentClassIds = new int[64];
    /** The class key of each output class id (index), in order of first use. */
    private final List<Long> classKeyById = new ArrayList<>();

    private final Map<Long, MtlogInfo.MethodInfo> methods = new TreeMap<>();
    private final LongIntMap usedMethods = new LongIntMap(1024);
    /** Used-method marks for the common small ids, so that marking costs an array store, not a hash lookup. */
    private boolean[] usedSmallMethods = new boolean[1024];

    private final LongIntMap tracedMethodIndex = new LongIntMap(64);
    private final Map<String, Integer> tracedMethodByName = new HashMap<>();
    private final List<MtlogInfo.MethodInfo> tracedMethods = new ArrayList<>();

    private long missingClass;
    private long undefinedAgentClasses;
    private long firstUndefinedAgentClass;
    private final List<Long> undefinedMethods = new ArrayList<>();

    private final MemoryMeter meter;

    ThreadTable(Set<String> wanted, MemoryMeter meter) {
        this.wanted = wanted;
        this.meter = meter;
        classKeyById.add(null); // class ids start at 1
    }

    void declare(long threadKey, long javaThreadId, String name, boolean virtual) {
        ThreadState ts = state(threadKey);
        ts.javaThreadId = javaThreadId;
        ts.name = name;
        ts.virtual = virtual;
        ts.selected = wanted == null || wanted.contains(name) || wanted.contains(Long.toString(threadKey))
                || wanted.contains(Long.toString(javaThreadId)) || ts.selected;
    }

    /** The state of thread {@code key}, made at first use. */
    ThreadState state(long key) {
        if (lastThread != null && lastThread.key == key) {
            return lastThread;
        }
        if (key >= 0 && key < threadsBySmallKey.length && threadsBySmallKey[(int) key] != null) {
            lastThread = threadsBySmallKey[(int) key];
            return lastThread;
        }
        int i = threadIndex.get(key);
        ThreadState ts;
        if (i == LongIntMap.MISSING) {
            if (key < 0 || key > 0xFFFFFFFFL) {
                throw new IllegalStateException("JFR thread id " + key + " does not fit the .mtlog's u32 thread id");
            }
            ts = new ThreadState(key, meter);
            ts.name = "";
            ts.javaThreadId = -1;
            ts.selected = wanted == null || wanted.contains(Long.toString(key));
            threadIndex.put(key, threads.size());
            threads.add(ts);
            if (key < SMALL_KEYS) {
                if (key >= threadsBySmallKey.length) {
                    threadsBySmallKey = Arrays.copyOf(threadsBySmallKey,
                            (int) Math.min(SMALL_KEYS, Math.max(key + 1, threadsBySmallKey.length * 2L)));
                }
                threadsBySmallKey[(int) key] = ts;
            }
        } else {
            ts = threads.get(i);
        }
        lastThread = ts;
        return ts;
    }

    /** Every thread, in ascending key order (the array is shared; do not modify). */
    ThreadState[] sorted() {
        if (sortedThreads.length != threads.size()) {
            sortedThreads = threads.toArray(new ThreadState[0]);
            Arrays.sort(sortedThreads, Comparator.comparingLong(t -> t.key));
        }
        return sortedThreads;
    }

    void className(long classKey, String className) {
        classNames.put(classKey, className);
    }

    /** Class sizes by class key, and by name for classes known by JFR's keys (per-event records) rather than the agent's. */
    private final Map<Long, int[]> classLayouts = new HashMap<>();
    private final Map<String, int[]> classLayoutsByName = new HashMap<>();

    void classLayout(long classKey, int instanceSize, int elementSize, int alignment) {
        int[] layout = {instanceSize, elementSize, alignment};
        classLayouts.put(classKey, layout);
        String name = classNames.get(classKey);
        if (name != null) {
            classLayoutsByName.put(name, layout);
        }
    }

    private final java.util.TreeMap<Long, MtlogInfo.FieldInfo> fields = new java.util.TreeMap<>();
    private final java.util.TreeSet<Long> usedFields = new java.util.TreeSet<>();

    void field(int fieldId, String className, String fieldName, String descriptor, boolean isStatic) {
        fields.put(fieldId & 0xFFFFFFFFL, new MtlogInfo.FieldInfo(className, fieldName, descriptor, isStatic));
    }

    /** The output id of field {@code fieldId} (the agent's), noted as used. Few fields: a tree set will do. */
    long useField(int fieldId) {
        long id = fieldId & 0xFFFFFFFFL;
        usedFields.add(id);
        return id;
    }

    void method(int methodId, String className, String methodName, String descriptor) {
        methods.put(methodId & 0xFFFFFFFFL, new MtlogInfo.MethodInfo(className, methodName, descriptor));
    }

    /** Marks agent method {@code methodId} used; returns it unsigned. */
    long useMethod(int methodId) {
        long id = methodId & 0xFFFFFFFFL;
        if (id < SMALL_KEYS) {
            if (id >= usedSmallMethods.length) {
                usedSmallMethods = Arrays.copyOf(usedSmallMethods,
                        (int) Math.min(SMALL_KEYS, Math.max(id + 1, usedSmallMethods.length * 2L)));
            }
            usedSmallMethods[(int) id] = true;
        } else if (usedMethods.get(id) == LongIntMap.MISSING) {
            usedMethods.put(id, 1);
        }
        return id;
    }

    /** The object id of an object of class {@code classKey} with identity hash {@code identityHash}. */
    long objectId(long classKey, int identityHash) {
        return MtlogFormat.objectId(classId(classKey), identityHash);
    }

    /**
     * The output class id of {@code classKey}, given in order of first use. The agent's small
     * class ids (buffered object records, one lookup per record) take an array probe instead of
     * the map.
     */
    private int classId(long classKey) {
        long agentId = classKey ^ RecordingSink.AGENT_CLASS_KEY_BIT;
        if (agentId >= 0 && agentId < agentClassIds.length) {
            int known = agentClassIds[(int) agentId] - 1;
            if (known >= 0) {
                return known;
            }
        }
        int classId = classIds.get(classKey);
        if (classId == LongIntMap.MISSING) {
            // The name is looked up when the INFO is written: the minitrace.ClassDefinition of a
            // buffered object record's class can come later in the chunk than the record.
            classId = classKeyById.size();
            classKeyById.add(classKey);
            classIds.put(classKey, classId);
        }
        if (agentId >= 0 && agentId < SMALL_KEYS) {
            if (agentId >= agentClassIds.length) {
                agentClassIds = Arrays.copyOf(agentClassIds,
                        (int) Math.min(SMALL_KEYS, Math.max(agentId + 1, agentClassIds.length * 2L)));
            }
            agentClassIds[(int) agentId] = classId + 1;
        }
        return classId;
    }

    void tracedMethod(long methodKey, String className, String methodName, String descriptor) {
        if (tracedMethodIndex.get(methodKey) != LongIntMap.MISSING) {
            return;
        }
        String name = className + ' ' + methodName + ' ' + descriptor;
        Integer index = tracedMethodByName.get(name);
        if (index == null) {
            index = tracedMethods.size();
            tracedMethods.add(new MtlogInfo.MethodInfo(className, methodName, descriptor));
            tracedMethodByName.put(name, index);
        }
        tracedMethodIndex.put(methodKey, index);
    }

    /** The output method id of a jdk.MethodTrace method key. */
    long tracedMethodId(long methodKey) {
        int index = tracedMethodIndex.get(methodKey);
        if (index == LongIntMap.MISSING) {
            throw new IllegalStateException("jdk.MethodTrace event refers to undeclared method key " + methodKey);
        }
        return TRACED_METHOD_BASE + index;
    }

    /** Puts every thread with records, class and used method into {@code info}; returns the thread count. */
    int fill(MtlogInfo info) {
        int n = 0;
        for (ThreadState t : threads) {
            if (t.used) {
                info.putThread(t.key, t.javaThreadId, t.name);
                n++;
            }
        }
        for (int i = 1; i < classKeyById.size(); i++) {
            long key = classKeyById.get(i);
            String name = classNames.get(key);
            if (name == null) {
                if (key != -1 && (key & RecordingSink.AGENT_CLASS_KEY_BIT) != 0) {
                    if (undefinedAgentClasses++ == 0) {
                        firstUndefinedAgentClass = key & 0xFFFFFFFFL;
                    }
                } else {
                    missingClass++;
                }
                name = "?";
            }
            info.putClass(i, name);
            int[] layout = classLayouts.get(key);
            if (layout == null) {
                layout = classLayoutsByName.get(name);
            }
            if (layout != null) {
                info.putClassSize(i, layout[0], layout[1], layout[2]);
            }
        }
        methods.forEach((id, m) -> info.putMethod(id, m.className(), m.methodName(), m.descriptor()));
        for (int i = 0; i < usedSmallMethods.length; i++) {
            if (usedSmallMethods[i]) {
                usedMethods.put(i, 1);
            }
        }
        long[] used = usedMethods.keys();
        Arrays.sort(used);
        for (long id : used) {
            if (!methods.containsKey(id)) {
                undefinedMethods.add(id);
                info.putMethod(id, "?", "unknown#" + id, "?");
            }
        }
        for (long id : usedFields) {
            MtlogInfo.FieldInfo f = fields.get(id);
            if (f == null) {
                undefinedFields++;
                info.putField(id, "?", "unknown#" + id, "?", false);
            } else {
                info.putField(id, f.className(), f.fieldName(), f.descriptor(), f.isStatic());
            }
        }
        for (int i = 0; i < tracedMethods.size(); i++) {
            MtlogInfo.MethodInfo m = tracedMethods.get(i);
            info.putMethod(TRACED_METHOD_BASE + i, m.className(), m.methodName(), m.descriptor());
        }
        return n;
    }

    /** The warnings about ids {@link #fill} could not resolve. */
    private int undefinedFields;

    void warn(List<String> w) {
        if (undefinedFields > 0) {
            w.add(undefinedFields + " field id(s) have no minitrace.FieldDefinition; written as field 'unknown#<id>'");
        }
        if (!undefinedMethods.isEmpty()) {
            w.add(undefinedMethods.size() + " method id(s) have no minitrace.MethodDefinition (first: "
                    + undefinedMethods.get(0) + "); written as class '?', method 'unknown#<id>'");
        }
        if (missingClass > 0) {
            w.add(missingClass + " lock/allocation event(s) have no class; written with class '?'");
        }
        if (undefinedAgentClasses > 0) {
            w.add(undefinedAgentClasses + " class id(s) of buffered lock/allocation records have no minitrace.ClassDefinition"
                    + " (first: " + firstUndefinedAgentClass + "); written with class '?'");
        }
    }
}
