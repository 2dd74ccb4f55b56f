package dev.minitrace.converter.jfr.fast;

/** Skips values of any metadata-described type without decoding them. */
final class Values {
    private Values() {
    }

    static void skipField(ChunkInput in, JfrType.Field field) throws JfrFormatException {
        if (field.array) {
            int count = in.readInt();
            // Every element takes at least one byte: a larger count is corrupt, not a reason to loop.
            in.require(count, "Array " + field.name);
            for (int i = 0; i < count; i++) {
                skipScalar(in, field, 0);
            }
        } else {
            skipScalar(in, field, 0);
        }
    }

    private static void skipScalar(ChunkInput in, JfrType.Field field, int depth) throws JfrFormatException {
        if (field.constantPool) {
            in.skipInteger(8);
        } else {
            skipValue(in, field.type, depth);
        }
    }

    static void skipValue(ChunkInput in, JfrType type, int depth) throws JfrFormatException {
        switch (type.kind) {
            case JfrType.KIND_BOOLEAN, JfrType.KIND_BYTE -> in.skip(1);
            case JfrType.KIND_SHORT, JfrType.KIND_CHAR -> in.skipInteger(2);
            case JfrType.KIND_INT -> in.skipInteger(4);
            case JfrType.KIND_LONG -> in.skipInteger(8);
            case JfrType.KIND_FLOAT -> in.skip(4);
            case JfrType.KIND_DOUBLE -> in.skip(8);
            case JfrType.KIND_STRING -> in.skipString();
            default -> {
                if (depth > 32) {
                    throw in.error("Type " + type.name + " nested deeper than 32 levels");
                }
                for (JfrType.Field f : type.fields) {
                    if (f.array) {
                        int count = in.readInt();
                        in.require(count, "Array " + type.name + "." + f.name);
                        for (int i = 0; i < count; i++) {
                            skipScalar(in, f, depth + 1);
                        }
                    } else {
                        skipScalar(in, f, depth + 1);
                    }
                }
            }
        }
    }

    /** Reads a scalar integral, boolean or constant-pool field as a long. */
    static long readScalarAsLong(ChunkInput in, JfrType.Field f) throws JfrFormatException {
        if (f.constantPool) {
            return in.readLong();
        }
        return switch (f.type.kind) {
            case JfrType.KIND_BOOLEAN, JfrType.KIND_BYTE -> in.readByte();
            case JfrType.KIND_SHORT -> in.readShort();
            case JfrType.KIND_CHAR -> in.readChar();
            case JfrType.KIND_INT -> in.readInt();
            case JfrType.KIND_LONG -> in.readLong();
            default -> throw in.error("Field " + f + " is not integral");
        };
    }
}
