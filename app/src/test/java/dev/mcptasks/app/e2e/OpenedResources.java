package dev.mcptasks.app.e2e;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** What a test opened, closed in the reverse order (a server after the application that talks to it). */
final class OpenedResources implements AutoCloseable {
    private final List<AutoCloseable> opened = Collections.synchronizedList(new ArrayList<>());

    /** Keeps {@code resource} to close; answers it. */
    <T extends AutoCloseable> T add(T resource) {
        opened.add(resource);
        return resource;
    }

    @Override
    public void close() throws Exception {
        List<AutoCloseable> closing = new ArrayList<>(opened);
        Collections.reverse(closing);
        for (AutoCloseable resource : closing) {
            resource.close();
        }
    }
}
