package dev.minitrace.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test (or every test of a class) under MiniTrace's exact counts of the methods it names.
 * The test JVM must run with the agent tracing those classes (Surefire's {@code argLine}, see
 * docs/junit.md). A test may take an {@link ExactTrace} parameter and count what a block of code
 * does; with {@link #baseline()} the whole test's counts are compared with a file kept in the
 * repository.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(MiniTraceExtension.class)
public @interface Traced {
    /** The methods counted, in the agent's filter syntax: {@code com.acme.*}, {@code com.acme.Dao}, {@code com.acme.Dao::query}. */
    String[] value();

    /**
     * A baseline file for the whole test's counts per method, relative to the working folder (the
     * module's folder under Maven), or {@code ""} for none. Written on the first run; compared on
     * every later run, where a change fails the test naming each changed method and both counts;
     * rewritten when the system property {@code minitrace.updateBaselines} is {@code true}.
     */
    String baseline() default "";
}
