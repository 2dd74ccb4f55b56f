package dev.minitrace.demo;

/** Placeholder entry point of the demo workload; replaced by the real workload. */
public final class DemoMain {
    private DemoMain() {
    }

    /** Runs the demo. */
    public static void main(String[] args) {
        System.out.println("demo");
    }
}
