package dev.minitrace.bench.apps;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 of an app's results, fed piece by piece; printed as hex. */
final class Checksums {
    private final MessageDigest digest;

    Checksums() {
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    Checksums add(String s) {
        digest.update(s.getBytes(StandardCharsets.UTF_8));
        digest.update((byte) 0); // so "ab","c" and "a","bc" differ
        return this;
    }

    Checksums add(byte[] bytes) {
        digest.update(bytes);
        return this;
    }

    /** The first 16 hex digits: plenty to tell results apart, short enough for a table. */
    String hex() {
        return HexFormat.of().formatHex(digest.digest()).substring(0, 16);
    }
}
