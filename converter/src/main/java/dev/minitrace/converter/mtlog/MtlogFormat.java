package dev.minitrace.converter.mtlog;

import java.util.Arrays;

/**
 * The constants of the {@code .mtlog} format, version 1 (see {@code docs/mtlog-format.md}): header
 * layout, block kinds, record types and layout flags. All integers in a file are little-endian.
 */
public final class MtlogFormat {
    /** The 8 magic bytes {@code "MTLOG\0\r\n"}. */
    static final byte[] MAGIC = {0x4D, 0x54, 0x4C, 0x4F, 0x47, 0x00, 0x0D, 0x0A};
    /** Bytes in the magic. */
    public static final int MAGIC_SIZE = 8;
    /** The major version this code reads and writes. */
    public static final int MAJOR = 1;
    /** The minor version this code writes. */
    public static final int MINOR = 0;
    /** Size of the file header. */
    public static final int HEADER_SIZE = 32;
    /** Offset of {@code recordCount} in the header (patched when the file is complete). */
    static final int RECORD_COUNT_OFFSET = 24;
    /** Size of a block header: kind u32, id u32, length u64. */
    public static final int BLOCK_HEADER_SIZE = 16;
    /** Size of one record: type u16, value u64, aux u32. */
    public static final int RECORD_SIZE = 14;

    /** Block kind END: the last block of a complete file. */
    public static final int BLOCK_END = 0;
    /** Block kind STREAM: records of one stream. */
    public static final int BLOCK_STREAM = 1;
    /** Block kind INFO: the UTF-8 name tables. */
    public static final int BLOCK_INFO = 2;

    /** Header flag bit 0 clear: thread-local logger. */
    public static final int LAYOUT_THREAD = 0;
    /** Header flag bit 0 set: global logger. */
    public static final int LAYOUT_GLOBAL = 1;
    /** Stream id of the single stream of the global layout. */
    public static final int GLOBAL_STREAM_ID = 0xFFFFFFFF;

    /** Record type: a method was entered; value = method id. */
    public static final int METHOD_ENTRY = 1;
    /** Record type: a method exited (normally or by exception); value = method id. */
    public static final int METHOD_EXIT = 2;
    /** Record type: a monitor was acquired; value = object id. */
    public static final int LOCK_ACQUIRE = 3;
    /** Record type: a monitor was released; value = object id. */
    public static final int LOCK_RELEASE = 4;
    /** Record type: an object was allocated; value = object id. */
    public static final int OBJECT_ALLOC = 5;
    /** Record type: a GC pause starts a new fragment; value = pause start (ns since epoch), aux = GC id. */
    public static final int GC_TIMESTAMP = 6;
    /** The highest base record type. */
    public static final int MAX_BASE_TYPE = 6;

    /** Extension record type: traced code threw an exception ({@code athrow}); value = method id, aux = its bytecode index. An EXCEPTION_OBJECT follows. */
    public static final int EXCEPTION_THROW = 16;
    /** Extension record type: an exception handler starts; value = method id, aux = the handler's bytecode index. An EXCEPTION_OBJECT follows. */
    public static final int EXCEPTION_HANDLED = 17;
    /** Extension record type: the exception of the THROW/HANDLED record just before; value = object id. */
    public static final int EXCEPTION_OBJECT = 18;
    /** Extension record type: a reference stored into a field; value = field id, aux = bytecode index. STORE_HOLDER, STORE_OLD, STORE_NEW follow. */
    public static final int FIELD_STORE = 19;
    /** Extension record type: a reference stored into an array element; value = index, aux = bytecode index. STORE_HOLDER, STORE_OLD, STORE_NEW follow. */
    public static final int ARRAY_STORE = 20;
    /** Extension record type: the object stored into (the array for ARRAY_STORE); value = object id, 0 for a static field. */
    public static final int STORE_HOLDER = 21;
    /** Extension record type: the reference overwritten; value = object id, 0 for null. */
    public static final int STORE_OLD = 22;
    /** Extension record type: the reference stored; value = object id, 0 for null. */
    public static final int STORE_NEW = 23;
    /**
     * Extension record type: an object whose allocation was recorded was found unreachable by a
     * collection; value = object id, aux = the GC id of the fragment point it follows (0xFFFFFFFF: none).
     */
    public static final int OBJECT_DEATH = 24;
    /** Extension record type: the receiver of the instance method whose METHOD_ENTRY is just before; value = object id. */
    public static final int METHOD_RECEIVER = 25;
    /** Extension record type: the length of the array whose OBJECT_ALLOC is just before; value = length. */
    public static final int ARRAY_LENGTH = 26;
    /**
     * Extension record type: the allocation group that follows was made by the instruction at aux
     * (thread-local layout) in method value, a method whose entries are not traced (agent option
     * {@code alloc-scope=all}).
     */
    public static final int ALLOC_SITE = 27;
    /** The highest record type this version writes; record types fit an {@code int} bit mask. */
    public static final int MAX_TYPE = 27;

    private static final String[] TYPE_NAMES = {
        "?", "METHOD_ENTRY", "METHOD_EXIT", "LOCK_ACQUIRE", "LOCK_RELEASE", "OBJECT_ALLOC", "GC_TIMESTAMP",
        "TYPE_7", "TYPE_8", "TYPE_9", "TYPE_10", "TYPE_11", "TYPE_12", "TYPE_13", "TYPE_14", "TYPE_15",
        "EXCEPTION_THROW", "EXCEPTION_HANDLED", "EXCEPTION_OBJECT", "FIELD_STORE", "ARRAY_STORE",
        "STORE_HOLDER", "STORE_OLD", "STORE_NEW", "OBJECT_DEATH", "METHOD_RECEIVER", "ARRAY_LENGTH",
        "ALLOC_SITE",
    };

    /** Whether records of {@code type} carry an object id as value (lock, allocation and the heap records' objects). */
    public static boolean objectValued(int type) {
        return type >= LOCK_ACQUIRE && type <= OBJECT_ALLOC || type == EXCEPTION_OBJECT || type >= STORE_HOLDER && type <= METHOD_RECEIVER;
    }

    private MtlogFormat() {
    }

    /** The name of a record type, or {@code TYPE_<n>} for a type this version does not know. */
    public static String typeName(int type) {
        return type >= 1 && type <= MAX_TYPE ? TYPE_NAMES[type] : "TYPE_" + type;
    }

    /** The object id of an object: {@code (classId << 32) | (identityHash & 0xFFFFFFFF)}. */
    public static long objectId(int classId, int identityHash) {
        return ((long) classId << 32) | (identityHash & 0xFFFFFFFFL);
    }

    /** The class id part of an object id. */
    public static int classIdOf(long objectId) {
        return (int) (objectId >>> 32);
    }

    /** @return true when the first {@code length} bytes of {@code b} start with the magic */
    public static boolean hasMagic(byte[] b, int length) {
        return length >= MAGIC_SIZE && Arrays.equals(b, 0, MAGIC_SIZE, MAGIC, 0, MAGIC_SIZE);
    }
}
