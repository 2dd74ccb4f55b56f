package dev.minitrace.cli;

import picocli.CommandLine.IVersionProvider;

/** Reports the version from the jar manifest. */
public final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = Main.class.getPackage().getImplementationVersion();
        return new String[] {"MiniTrace " + (v == null ? "(development build)" : v)};
    }
}
