package dev.mcptasks.testkit.transport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeSet;

/**
 * The scripted peer as a child process speaking newline-delimited JSON on stdin/stdout. On stdin EOF it writes
 * {@code eof} to the file named by {@code PEER_MARKER} (when set) and exits 0; a request {@code env} is answered with
 * the names of its environment variables.
 */
public final class StdioScriptedPeerMain {
    /** Environment variable naming the file the peer marks when it saw stdin close. */
    public static final String MARKER_ENV = "PEER_MARKER";

    private StdioScriptedPeerMain() {}

    public static void main(String[] args) throws IOException {
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        ScriptedPeer script = new ScriptedPeer();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        System.err.println("scripted peer started");
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            if (line.contains("\"method\":\"env\"")) {
                String id = JsonMembers.of(line).get("id");
                String names = String.join("\",\"", new TreeSet<>(System.getenv().keySet()));
                write(out, ScriptedPeer.echo(id, "[\"" + names + "\"]"));
                continue;
            }
            for (ScriptedPeer.Action action : script.handle(line)) {
                if (action instanceof ScriptedPeer.Action.Emit emit) {
                    write(out, emit.json());
                } else if (action instanceof ScriptedPeer.Action.EmitMalformed bad) {
                    write(out, bad.text());
                } else if (action instanceof ScriptedPeer.Action.Exit exit) {
                    out.flush();
                    Runtime.getRuntime().halt(exit.code());
                }
            }
        }
        String marker = System.getenv(MARKER_ENV);
        if (marker != null) {
            Files.writeString(Path.of(marker), "eof");
        }
        System.exit(0);
    }

    private static void write(PrintStream out, String json) {
        out.print(json);
        out.print('\n');
        out.flush();
    }
}
