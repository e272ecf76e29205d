package dev.mcptasks.core.service;

import dev.mcptasks.domain.DomainException;

/** A task names a server that is not configured, or a server names a driver that does not exist. */
public class UnknownServerException extends DomainException {
    public UnknownServerException(String message) {
        super(message);
    }
}
