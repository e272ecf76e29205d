package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one session of a stdio connection, and its only writer: each message is one line, written whole under a lock
 * so answers and notifications from different threads never interleave. After a failed write (the client went
 * away) nothing more is written.
 */
final class StdioSession implements FrontSession {
    private static final Logger LOG = LoggerFactory.getLogger(StdioSession.class);

    private final String id;
    private final OutputStream out;
    private final ObjectMapper mapper;
    private boolean broken;

    StdioSession(String id, OutputStream out, ObjectMapper mapper) {
        this.id = id;
        this.out = out;
        this.mapper = mapper;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public void notify(ObjectNode notification) {
        write(notification);
    }

    synchronized void write(ObjectNode message) {
        if (broken) {
            return;
        }
        try {
            byte[] line = mapper.writeValueAsBytes(message);
            out.write(line);
            out.write('\n');
            out.flush();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree could not be written: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            broken = true;
            LOG.info("stdio output closed ({}); further messages are dropped", e.toString());
        }
    }
}
