package dev.minitrace.query.parquet;

import com.github.luben.zstd.Zstd;
import java.io.IOException;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Compresses Parquet pages with zstd-jni, the library parquet-java itself uses for ZSTD. parquet-java
 * reaches it only through Hadoop's codec classes; this adapter lets the writer run without Hadoop.
 * Writing only: the export never reads its files back with parquet-java.
 */
final class ZstdCompressor implements CompressionCodecFactory.BytesInputCompressor {
    /** zstd's default level, which parquet-java uses too: fast, and pages of ids shrink well. */
    static final int LEVEL = 3;

    private byte[] out = new byte[0];

    @Override
    public BytesInput compress(BytesInput bytes) throws IOException {
        byte[] in = bytes.toByteArray();
        int bound = (int) Zstd.compressBound(in.length);
        if (out.length < bound) {
            out = new byte[bound];
        }
        long n = Zstd.compressByteArray(out, 0, out.length, in, 0, in.length, LEVEL);
        if (Zstd.isError(n)) {
            throw new IOException("zstd: " + Zstd.getErrorName(n));
        }
        // The page store copies the bytes it keeps, so the buffer is reused for the next page.
        return BytesInput.from(out, 0, (int) n);
    }

    @Override
    public CompressionCodecName getCodecName() {
        return CompressionCodecName.ZSTD;
    }

    @Override
    public void release() {
        out = new byte[0];
    }
}
