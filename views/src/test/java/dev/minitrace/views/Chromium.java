package dev.minitrace.views;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A headless Chromium driven over the DevTools protocol: the page's console errors and uncaught
 * exceptions are collected, scripts evaluated in the page read its DOM or state, and screenshots
 * are taken. The protocol is JSON over a WebSocket, so the JDK's own client and Jackson suffice:
 * no WebDriver, no driver binary that must match the browser's version. The browser is Debian's
 * {@code chromium} ({@code .ci/install-browser} installs it); tests skip when there is none.
 */
public final class Chromium implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final Process process;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final List<String> errors = Collections.synchronizedList(new ArrayList<>());
    private final List<String> warnings = Collections.synchronizedList(new ArrayList<>());
    private volatile CompletableFuture<Void> loaded = new CompletableFuture<>();

    /** The browser to run: {@code -Dminitrace.chromium=PATH}, else {@code chromium} or {@code chromium-browser} on the PATH. */
    public static Path executable() {
        String p = System.getProperty("minitrace.chromium");
        if (p != null) {
            return Files.isExecutable(Paths.get(p)) ? Paths.get(p) : null;
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            for (String name : List.of("chromium", "chromium-browser")) {
                Path c = Paths.get(dir, name);
                if (Files.isExecutable(c)) {
                    return c;
                }
            }
        }
        return null;
    }

    /** Starts the browser with a fresh profile in {@code profileDir} and opens a blank page. */
    public static Chromium start(Path executable, Path profileDir) throws Exception {
        // The flags keep Chromium off the network it has no use for here: without them it retries
        // connections the closed network refuses, and misbehaves.
        ProcessBuilder pb = new ProcessBuilder(executable.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--allow-file-access-from-files", "--window-size=1400,900",
                "--user-data-dir=" + profileDir, "--remote-debugging-port=0", "about:blank");
        pb.redirectErrorStream(true);
        pb.redirectOutput(profileDir.resolveSibling(profileDir.getFileName() + ".log").toFile());
        Process process = pb.start();
        try {
            Path portFile = profileDir.resolve("DevToolsActivePort");
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (!Files.exists(portFile) || Files.readAllLines(portFile).size() < 2) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("chromium exited with status " + process.exitValue() + " before it listened");
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("chromium did not open its DevTools port within " + TIMEOUT);
                }
                Thread.sleep(50);
            }
            int port = Integer.parseInt(Files.readAllLines(portFile).get(0).trim());
            HttpClient http = HttpClient.newHttpClient();
            String list = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            String page = null;
            for (JsonNode t : JSON.readTree(list)) {
                if (t.path("type").asText().equals("page")) {
                    page = t.path("webSocketDebuggerUrl").asText();
                    break;
                }
            }
            if (page == null) {
                throw new IllegalStateException("chromium has no page target: " + list);
            }
            return new Chromium(process, http, page);
        } catch (Exception | Error e) {
            process.destroyForcibly();
            throw e;
        }
    }

    private Chromium(Process process, HttpClient http, String pageUrl) throws Exception {
        this.process = process;
        this.socket = http.newWebSocketBuilder().buildAsync(URI.create(pageUrl), new Listener()).get(30, TimeUnit.SECONDS);
        call("Page.enable", null);
        call("Runtime.enable", null);
        call("Log.enable", null);
    }

    /** Receives the protocol's messages: answers to calls and the events this class watches. */
    private final class Listener implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String text = partial.toString();
                partial.setLength(0);
                try {
                    message(JSON.readTree(text));
                } catch (IOException e) {
                    errors.add("unreadable DevTools message: " + e.getMessage());
                }
            }
            ws.request(1);
            return null;
        }
    }

    private void message(JsonNode m) {
        if (m.has("id")) {
            CompletableFuture<JsonNode> f = pending.remove(m.get("id").asInt());
            if (f != null) {
                if (m.has("error")) {
                    f.completeExceptionally(new IllegalStateException(m.get("error").toString()));
                } else {
                    f.complete(m.path("result"));
                }
            }
            return;
        }
        String method = m.path("method").asText();
        JsonNode p = m.path("params");
        switch (method) {
            case "Runtime.consoleAPICalled" -> {
                String type = p.path("type").asText();
                StringBuilder text = new StringBuilder();
                for (JsonNode a : p.path("args")) {
                    text.append(a.has("value") ? a.get("value").asText() : a.path("description").asText()).append(' ');
                }
                if (type.equals("error") || type.equals("assert")) {
                    errors.add("console." + type + ": " + text.toString().trim());
                } else if (type.equals("warning")) {
                    warnings.add(text.toString().trim());
                }
            }
            case "Runtime.exceptionThrown" -> {
                JsonNode d = p.path("exceptionDetails");
                errors.add("uncaught: " + d.path("exception").path("description").asText(d.path("text").asText()));
            }
            case "Log.entryAdded" -> {
                JsonNode e = p.path("entry");
                if (e.path("level").asText().equals("error")) {
                    errors.add("log: " + e.path("text").asText() + " " + e.path("url").asText());
                }
            }
            case "Page.loadEventFired" -> loaded.complete(null);
            default -> {
            }
        }
    }

    /** Calls a protocol method and waits for its result. */
    public JsonNode call(String method, ObjectNode params) throws Exception {
        int id = ids.incrementAndGet();
        ObjectNode m = JSON.createObjectNode().put("id", id).put("method", method);
        if (params != null) {
            m.set("params", params);
        }
        CompletableFuture<JsonNode> f = new CompletableFuture<>();
        pending.put(id, f);
        socket.sendText(JSON.writeValueAsString(m), true).get(30, TimeUnit.SECONDS);
        return f.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }

    /** Opens {@code url} and waits for its load event. */
    public void open(String url) throws Exception {
        loaded = new CompletableFuture<>();
        call("Page.navigate", JSON.createObjectNode().put("url", url));
        loaded.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }

    /** The value of a JavaScript expression in the page (promises are awaited); exceptions fail. */
    public JsonNode eval(String expression) throws Exception {
        JsonNode r = call("Runtime.evaluate", JSON.createObjectNode().put("expression", expression)
                .put("returnByValue", true).put("awaitPromise", true));
        if (r.has("exceptionDetails")) {
            throw new IllegalStateException("page script failed: " + r.get("exceptionDetails").toString());
        }
        return r.path("result").path("value");
    }

    /** Waits until {@code condition} (a JavaScript expression) is true in the page. */
    public void waitFor(String condition, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!eval("!!(" + condition + ")").asBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out after " + timeout + " waiting for " + condition + "; console errors: " + errors);
            }
            Thread.sleep(100);
        }
    }

    /** Writes a PNG of the page as it is shown now. */
    public Path screenshot(Path file) throws Exception {
        JsonNode r = call("Page.captureScreenshot", JSON.createObjectNode().put("format", "png"));
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.write(file, Base64.getDecoder().decode(r.path("data").asText()));
        return file;
    }

    /** The console errors and uncaught exceptions so far. */
    public List<String> errors() {
        synchronized (errors) {
            return List.copyOf(errors);
        }
    }

    /** The console warnings so far. */
    public List<String> warnings() {
        synchronized (warnings) {
            return List.copyOf(warnings);
        }
    }

    @Override
    public void close() {
        try {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            // the browser is ended below whatever the socket does
        }
        // Chromium's helpers (renderer, zygote, crash handler) outlive its main process for a moment
        // and keep writing into the profile: end and await every one of them, or the caller's
        // temporary folder cannot be deleted (seen once in CI under load).
        java.util.List<ProcessHandle> all = new java.util.ArrayList<>(process.descendants().toList());
        all.add(process.toHandle());
        all.forEach(ProcessHandle::destroy);
        try {
            for (ProcessHandle h : all) {
                try {
                    h.onExit().get(10, TimeUnit.SECONDS);
                } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                    h.destroyForcibly();
                    h.onExit().get(5, TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            all.forEach(ProcessHandle::destroyForcibly);
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
            // destroyed forcibly above; nothing more can be done
        }
    }
}
