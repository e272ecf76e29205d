-- Version 9: the W3C trace context a task continues (its traceparent and, when there is one, tracestate), stored at
-- submit: the client's context as received by the gateway, or a new root trace. Whichever worker drives the task reads
-- it from the row, so a trace goes on across takeovers. Null for tasks submitted with tracing off and no client
-- context. Written only by the insert; no index reads it, so the writes stay HOT. Adding nullable columns without a
-- default rewrites nothing.
ALTER TABLE tasks ADD COLUMN traceparent text;
ALTER TABLE tasks ADD COLUMN tracestate text;
