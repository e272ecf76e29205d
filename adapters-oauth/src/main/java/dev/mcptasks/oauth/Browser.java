package dev.mcptasks.oauth;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/** Opens an authorization url by running a command with the url as its last argument (e.g. {@code xdg-open}). */
@FunctionalInterface
interface Browser {
    void open(URI url);

    /** {@code command} split on white space; the process runs on its own (its output is discarded). */
    static Browser command(String command) {
        return url -> {
            List<String> argv = new ArrayList<>(List.of(command.trim().split("\\s+")));
            argv.add(url.toString());
            try {
                Process process = new ProcessBuilder(argv).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                process.getOutputStream().close(); // no input: a command that reads stdin sees its end
            } catch (IOException e) {
                throw new OAuthFailure("cannot run the browser command '" + command + "': " + e.getMessage());
            }
        };
    }
}
