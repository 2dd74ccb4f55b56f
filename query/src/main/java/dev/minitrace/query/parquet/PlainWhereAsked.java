package dev.minitrace.query.parquet;

import java.util.Set;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.factory.DefaultV2ValuesWriterFactory;
import org.apache.parquet.column.values.factory.ValuesWriterFactory;
import org.apache.parquet.column.values.plain.PlainValuesWriter;

/**
 * parquet-java's encodings for data pages v2, except PLAIN for the columns named. Object ids are
 * such a column: their low half is an identity hash, random, so a dictionary overflows at once and
 * the delta encoding it falls back to stores the difference of two random numbers; PLAIN values
 * under zstd keep the repeats (a monitor's id at each acquire and release) and cost about the hash's
 * own 4 bytes otherwise (on the standard bench recording: 26.8 MB against 44.9 MB per 22 M records).
 */
final class PlainWhereAsked implements ValuesWriterFactory {
    private final Set<String> plain;
    private final DefaultV2ValuesWriterFactory defaults = new DefaultV2ValuesWriterFactory();
    private ParquetProperties properties;

    PlainWhereAsked(Set<String> plain) {
        this.plain = plain;
    }

    @Override
    public void initialize(ParquetProperties p) {
        this.properties = p;
        defaults.initialize(p);
    }

    @Override
    public ValuesWriter newValuesWriter(ColumnDescriptor column) {
        if (column.getPath().length == 1 && plain.contains(column.getPath()[0])) {
            return new PlainValuesWriter(properties.getInitialSlabSize(), properties.getPageSizeThreshold(),
                    properties.getAllocator());
        }
        return defaults.newValuesWriter(column);
    }
}
