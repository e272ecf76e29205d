package dev.mcptasks.app.cli;

import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/** Registers what runs on SIGTERM/SIGINT; tests trigger it themselves instead of signalling the JVM. */
public interface ShutdownHooks {
    /**
     * Handles SIGTERM and SIGINT directly, so a signalled {@code serve} drains and then exits with status 0 (a JVM
     * shutdown hook alone would end with 143 or 130). A shutdown hook remains as the fallback for other exits.
     */
    ShutdownHooks JVM = hook -> {
        AtomicBoolean ran = new AtomicBoolean();
        Runnable once = () -> {
            if (ran.compareAndSet(false, true)) {
                hook.run();
            }
        };
        for (String name : new String[] {"TERM", "INT"}) {
            try {
                Signal.handle(new Signal(name), signal -> new Thread(once, "mcp-tasks-sig" + name).start());
            } catch (IllegalArgumentException e) {
                LoggerFactory.getLogger(ShutdownHooks.class).debug("cannot handle SIG{}: {}", name, e.toString());
            }
        }
        Runtime.getRuntime().addShutdownHook(new Thread(once, "mcp-tasks-shutdown"));
    };

    void register(Runnable hook);
}
