package dev.minitrace.junit;

import java.lang.reflect.AnnotatedElement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.opentest4j.AssertionFailedError;

/**
 * The extension behind {@link Traced}: gives a test an {@link ExactTrace}, and for a test with a
 * {@link Traced#baseline()} traces the whole test and compares its counts with the baseline file.
 */
public final class MiniTraceExtension implements ParameterResolver, BeforeTestExecutionCallback, AfterTestExecutionCallback {
    /** The system property that rewrites every baseline with the counts of this run. */
    public static final String UPDATE_PROPERTY = "minitrace.updateBaselines";

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(MiniTraceExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == ExactTrace.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Traced traced = traced(context).orElseThrow(() -> new ParameterResolutionException("an ExactTrace parameter needs @Traced"));
        return (ExactTrace) block -> {
            if (context.getStore(NAMESPACE).get(TraceSession.class) != null) {
                throw new IllegalStateException("the test's baseline trace is running: an ExactTrace cannot run inside it");
            }
            TraceSession s = TraceSession.start(traced.value());
            try {
                block.run();
            } catch (Throwable t) {
                s.abandon();
                throw t;
            }
            return s.stop();
        };
    }

    @Override
    public void beforeTestExecution(ExtensionContext context) throws Exception {
        Optional<Traced> traced = traced(context);
        if (traced.isPresent() && !traced.get().baseline().isEmpty()) {
            context.getStore(NAMESPACE).put(TraceSession.class, TraceSession.start(traced.get().value()));
        }
    }

    @Override
    public void afterTestExecution(ExtensionContext context) throws Exception {
        TraceSession s = context.getStore(NAMESPACE).remove(TraceSession.class, TraceSession.class);
        if (s == null) {
            return;
        }
        if (context.getExecutionException().isPresent()) {
            s.abandon(); // a failed test's counts say nothing about the baseline
            return;
        }
        ExactCounts now = s.stop();
        Path file = Path.of(traced(context).orElseThrow().baseline());
        if (!Files.exists(file) || Boolean.getBoolean(UPDATE_PROPERTY)) {
            Baseline.write(file, now);
            return;
        }
        Map<String, ExactCounts.MethodCounts> base = Baseline.read(file);
        List<String> changes = Baseline.differences(base, now.methods());
        if (!changes.isEmpty()) {
            throw new AssertionFailedError("exact counts differ from the baseline " + file + " (-D" + UPDATE_PROPERTY
                    + "=true rewrites it):\n  " + String.join("\n  ", changes));
        }
    }

    private static Optional<Traced> traced(ExtensionContext context) {
        Optional<Traced> m = context.getTestMethod().map(MiniTraceExtension::annotation);
        if (m.isPresent()) {
            return m;
        }
        return context.getTestClass().map(MiniTraceExtension::annotation);
    }

    private static Traced annotation(AnnotatedElement e) {
        return e.getAnnotation(Traced.class);
    }
}
