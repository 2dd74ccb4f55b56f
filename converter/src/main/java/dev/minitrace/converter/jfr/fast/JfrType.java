package dev.minitrace.converter.jfr.fast;

/** One {@code class} element of a chunk's metadata: a type id, its name and its field layout. */
final class JfrType {
    static final int KIND_STRUCT = 0;
    static final int KIND_BOOLEAN = 1;
    static final int KIND_BYTE = 2;
    static final int KIND_SHORT = 3;
    static final int KIND_CHAR = 4;
    static final int KIND_INT = 5;
    static final int KIND_LONG = 6;
    static final int KIND_FLOAT = 7;
    static final int KIND_DOUBLE = 8;
    static final int KIND_STRING = 9;

    final long id;
    final String name;
    final String superType;
    /** How values of this type are encoded: a primitive kind, or {@link #KIND_STRUCT} (fields in order). */
    final int kind;
    Field[] fields = new Field[0];

    JfrType(long id, String name, String superType) {
        this.id = id;
        this.name = name;
        this.superType = superType;
        this.kind = kindOf(name);
    }

    private static int kindOf(String name) {
        return switch (name) {
            case "boolean" -> KIND_BOOLEAN;
            case "byte" -> KIND_BYTE;
            case "short" -> KIND_SHORT;
            case "char" -> KIND_CHAR;
            case "int" -> KIND_INT;
            case "long" -> KIND_LONG;
            case "float" -> KIND_FLOAT;
            case "double" -> KIND_DOUBLE;
            case "java.lang.String" -> KIND_STRING;
            default -> KIND_STRUCT;
        };
    }

    boolean isEvent() {
        return "jdk.jfr.Event".equals(superType);
    }

    int fieldIndex(String fieldName) {
        for (int i = 0; i < fields.length; i++) {
            if (fields[i].name.equals(fieldName)) {
                return i;
            }
        }
        return -1;
    }

    /** One {@code field} element: name, type, whether it is a constant-pool reference, array or not. */
    static final class Field {
        static final int TICKS_NONE = 0;
        static final int TICKS_TIMESTAMP = 1;
        static final int TICKS_TIMESPAN = 2;

        final String name;
        final long typeId;
        final boolean constantPool;
        final boolean array;
        /** Whether the value is in ticks ({@code @Timestamp("TICKS")} / {@code @Timespan("TICKS")}). */
        int ticks;
        JfrType type;

        Field(String name, long typeId, boolean constantPool, boolean array) {
            this.name = name;
            this.typeId = typeId;
            this.constantPool = constantPool;
            this.array = array;
        }

        /** @return true for a scalar integral value (or constant-pool key) readable as a long */
        boolean isIntegral() {
            if (array) {
                return false;
            }
            if (constantPool) {
                return true;
            }
            int k = type.kind;
            return k == JfrType.KIND_BYTE || k == JfrType.KIND_SHORT || k == JfrType.KIND_CHAR
                    || k == JfrType.KIND_INT || k == JfrType.KIND_LONG;
        }

        @Override
        public String toString() {
            return name + ":" + (type == null ? Long.toString(typeId) : type.name)
                    + (array ? "[]" : "") + (constantPool ? "(cp)" : "");
        }
    }
}
