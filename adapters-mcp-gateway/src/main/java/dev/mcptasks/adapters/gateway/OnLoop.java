package dev.mcptasks.adapters.gateway;

import io.netty.channel.Channel;
import java.util.concurrent.RejectedExecutionException;

/**
 * Runs work on a channel's event loop from any thread. Once the gateway is stopping its loops refuse new work; what
 * was to be written then is dropped, as for a closed connection, rather than thrown at the dispatcher's thread (a
 * notification or a late answer must never fail its sender).
 */
final class OnLoop {
    private OnLoop() {}

    static void run(Channel channel, Runnable work) {
        try {
            channel.eventLoop().execute(work);
        } catch (RejectedExecutionException stopping) {
            channel.close();
        }
    }
}
