package io.zkion.discovery.tools;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** zkion-cli run in this JVM, as a script runs it: its exit code and what it printed to standard out and error. */
public final class CliRun {
    public final int code;
    public final String out;
    public final String err;

    private CliRun(int code, String out, String err) {
        this.code = code;
        this.out = out;
        this.err = err;
    }

    /** Runs the CLI with {@code args}; one run at a time, as System.out and System.err are the JVM's. */
    public static synchronized CliRun of(String... args) {
        PrintStream o = System.out;
        PrintStream e = System.err;
        ByteArrayOutputStream ob = new ByteArrayOutputStream();
        ByteArrayOutputStream eb = new ByteArrayOutputStream();
        int code;

        System.setOut(new PrintStream(ob, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(eb, true, StandardCharsets.UTF_8));

        try {
            code = ZkIonCli.execute(args);
        }
        finally {
            System.setOut(o);
            System.setErr(e);
        }

        return new CliRun(code, ob.toString(StandardCharsets.UTF_8), eb.toString(StandardCharsets.UTF_8));
    }
}
