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
     * match finder for 2.6 % less output (docs/decisions.md, "zstd level 1, level 2 for PLAIN columns, a context per level").
     */
    static final int LEVEL = 1;
    /**
     * For PLAIN and REPEATS columns (identity hashes with a class id above them, call paths'
     * hashes, bytecode indexes): zstd's next strategy finds the repeated class bytes between random
     * ones that the fastest misses, for 17 % less output at a small cost, and 8 % less for the
     * paths (docs/decisions.md, same entry).
     */
    static final int RANDOM_LEVEL = 2;

    private int level = LEVEL;

    /**
     * Kept from page to page, one per level: zstd-jni's one-shot call sets up a context per page, 3 %
     * of an export's time, and a context whose level changes clears its tables again.
     */
    private final ZstdCompressCtx[] contexts = new ZstdCompressCtx[RANDOM_LEVEL + 1];
    private byte[] out = new byte[0];

    @Override
    public BytesInput compress(BytesInput bytes) throws IOException {
        ZstdCompressCtx context = contexts[level];
        if (context == null) {
            context = new ZstdCompressCtx().setLevel(level);
            contexts[level] = context;
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

    /** The level of the pages compressed from now on. */
    void level(int level) {
        this.level = level;
    }

    @Override
    public CompressionCodecName getCodecName() {
        return CompressionCodecName.ZSTD;
    }

    @Override
    public void release() {
        out = new byte[0];
        for (int l = 0; l < contexts.length; l++) {
            if (contexts[l] != null) {
                contexts[l].close();
                contexts[l] = null;
            }
        }
    }
}
