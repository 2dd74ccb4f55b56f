package dev.minitrace.query.parquet;

import java.util.List;
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
     * How a number column's values are encoded, chosen once from what they are like. Booleans are
     * always RLE, strings plain or (written from codes) a dictionary.
     */
    public enum Encoding {
        /**
         * Few distinct values (ids, bytecode indexes): a dictionary per column chunk, its ids
         * bit-packed. Past 256 KB of distinct values the column falls back to {@link #DELTA} for the
         * rest of the file.
         */
        DICTIONARY,
        /** Values that grow by small steps (sequence numbers): delta binary packing. */
        DELTA,
        /**
         * Values close to random (identity hashes): PLAIN, no min and max. A dictionary overflows at
         * once and delta encoding stores the difference of two random numbers; PLAIN values under
         * zstd keep the repeats (a monitor's id at each acquire and release) and cost about the
         * hash's own 4 bytes otherwise.
         */
        PLAIN,
        /**
         * Values that repeat in the order the program ran them: call paths' hashes (a real program
         * has millions of distinct ones), bytecode indexes. A loop repeats the same values in the
         * same order; PLAIN in pages of up to 2 MB, no min and max, zstd finds those repeats within
         * a page, where a dictionary's bit-packed ids hid them.
         */
        REPEATS;

        /** Whether the values are written as they are (no dictionary, no delta), without min and max, at zstd's next level. */
        public boolean plainValues() {
            return this == PLAIN || this == REPEATS;
        }
    }

    /**
     * A column: name, type, whether it may be null, and how its values are encoded; with
     * {@code derived} SQL, a column the files do not hold, which the tables' views compute from the
     * stored columns of its row ({@link #stored()}); not {@code shown}: a stored column that only
     * serves to derive others, which the views leave out.
     */
    public record Column(String name, Kind kind, boolean nullable, Encoding encoding, String derived, boolean shown) {
        /** A column the files hold, shown as it is. */
        public Column(String name, Kind kind, boolean nullable, Encoding encoding) {
            this(name, kind, nullable, encoding, null, true);
        }

        /** Whether the files hold it. */
        public boolean isStored() {
            return derived == null;
        }
    }

    /** A column that may be null, stored only to derive shown columns from it (the views leave it out). */
    public static Column hidden(String name, Kind kind, Encoding encoding) {
        return new Column(name, kind, true, encoding, null, false);
    }

    /** The columns the table's view shows, in order: the documented ones. */
    public List<Column> shown() {
        return columns.stream().filter(Column::shown).toList();
    }

    /**
     * A column that the files do not hold: {@code sql} computes it from the row's stored columns (an
     * expression that DuckDB and Spark SQL both read), in the table's view.
     */
    public static Column derived(String name, Kind kind, String sql) {
        return new Column(name, kind, true, Encoding.DICTIONARY, sql, true);
    }

    /** The table as its files hold it: the stored columns only, in order. */
    public TableSchema stored() {
        if (columns.stream().allMatch(Column::isStored)) {
            return this;
        }
        return new TableSchema(name, columns.stream().filter(Column::isStored).toList());
    }

    /** A column that is never null. */
    public static Column required(String name, Kind kind) {
        return new Column(name, kind, false, Encoding.DICTIONARY);
    }

    /** A column that may be null. */
    public static Column optional(String name, Kind kind) {
        return new Column(name, kind, true, Encoding.DICTIONARY);
    }

    /** A column that may be null, its values encoded as {@code encoding} says. */
    public static Column optional(String name, Kind kind, Encoding encoding) {
        return new Column(name, kind, true, encoding);
    }

    /** A column that is never null, its values encoded as {@code encoding} says. */
    public static Column required(String name, Kind kind, Encoding encoding) {
        return new Column(name, kind, false, encoding);
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
            if (!c.isStored()) {
                throw new IllegalStateException(name + "." + c.name() + " is derived: write the table's stored() schema");
            }
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
