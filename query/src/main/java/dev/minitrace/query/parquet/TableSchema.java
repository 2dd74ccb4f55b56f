package dev.minitrace.query.parquet;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/** A table of the export: its name and its columns, in file order. */
public record TableSchema(String name, List<Column> columns) {
    /** A column's value type. */
    public enum Kind {
        /** INT64. */
        LONG,
        /** INT32. */
        INT,
        /** BOOLEAN. */
        BOOLEAN,
        /** BINARY annotated as UTF-8 string. */
        STRING
    }

    /**
     * A column: name, type, whether it may be null, and whether its values are close to random
     * (stored PLAIN, see {@link PlainWhereAsked}).
     */
    public record Column(String name, Kind kind, boolean nullable, boolean random) {
    }

    /** A column that is never null. */
    public static Column required(String name, Kind kind) {
        return new Column(name, kind, false, false);
    }

    /** A column that may be null. */
    public static Column optional(String name, Kind kind) {
        return new Column(name, kind, true, false);
    }

    /** A column that may be null and whose values are close to random. */
    public static Column optionalRandom(String name, Kind kind) {
        return new Column(name, kind, true, true);
    }

    /** The names of the columns whose values are close to random. */
    public Set<String> randomColumns() {
        Set<String> s = new HashSet<>();
        for (Column c : columns) {
            if (c.random()) {
                s.add(c.name());
            }
        }
        return s;
    }

    /** The index of column {@code name}. */
    public int index(String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException("table " + this.name + " has no column " + name);
    }

    /** The Parquet schema. */
    public MessageType parquet() {
        Types.MessageTypeBuilder b = Types.buildMessage();
        for (Column c : columns) {
            Type.Repetition r = c.nullable() ? Type.Repetition.OPTIONAL : Type.Repetition.REQUIRED;
            switch (c.kind()) {
                case LONG -> b.primitive(PrimitiveTypeName.INT64, r).named(c.name());
                case INT -> b.primitive(PrimitiveTypeName.INT32, r).named(c.name());
                case BOOLEAN -> b.primitive(PrimitiveTypeName.BOOLEAN, r).named(c.name());
                case STRING -> b.primitive(PrimitiveTypeName.BINARY, r).as(LogicalTypeAnnotation.stringType()).named(c.name());
                default -> throw new IllegalStateException(c.kind().toString());
            }
        }
        return b.named(name);
    }
}
