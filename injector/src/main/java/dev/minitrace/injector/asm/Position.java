package dev.minitrace.injector.asm;

/**
 * The original bytecode index of the instruction currently being visited, maintained by
 * {@link InstructionCounter} (first in the chain) and read by the visitors after it.
 */
public final class Position {
    int bci;

    /** The bytecode index of the current original instruction. */
    public int bci() {
        return bci;
    }
}
