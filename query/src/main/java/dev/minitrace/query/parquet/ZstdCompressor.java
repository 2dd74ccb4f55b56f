package dev.minitrace.query.parquet;

import com.github.luben.zstd.ZstdCompressCtx;
import java.io.IOException;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Compresses Parquet pages with zstd-jni, the library parquet-java itself uses for ZSTD. parquet-java
 * reaches it only through Hadoop's codec classes; this adapter lets the writer run without Hadoop.
 * Writing only: the export never reads its files back with parquet-java. One compressor per file,
 * used by one thread at a time.
 */
final class ZstdCompressor implements CompressionCodecFactory.BytesInputCompressor {
    /**
     * zstd's fastest strategy: level 3 (zstd's default) spent 14 % of a real trace's export in its
     * match finder for 2.6 % less output (docs/performance.md, "zstd level 1").
     */
    static final int LEVEL = 1;

    /** Kept from page to page: zstd-jni's one-shot call sets up a context per page, 3 % of an export's time. */
    private ZstdCompressCtx context;
    private byte[] out = new byte[0];

    @Override
    public BytesInput compress(BytesInput bytes) throws IOException {
        if (context == null) {
            context = new ZstdCompressCtx().setLevel(LEVEL);
        }
        byte[] in = bytes.toByteArray();
        int bound = (int) com.github.luben.zstd.Zstd.compressBound(in.length);
        if (out.length < bound) {
            out = new byte[bound];
        }
        int n = context.compressByteArray(out, 0, out.length, in, 0, in.length);
        // The page store copies the bytes it keeps, so the buffer is reused for the next page.
        return BytesInput.from(out, 0, n);
    }

    @Override
    public CompressionCodecName getCodecName() {
        return CompressionCodecName.ZSTD;
    }

    @Override
    public void release() {
        out = new byte[0];
        if (context != null) {
            context.close();
            context = null;
        }
    }
}
