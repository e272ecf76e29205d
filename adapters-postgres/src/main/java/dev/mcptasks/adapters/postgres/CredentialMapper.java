package dev.mcptasks.adapters.postgres;

import java.time.Instant;
import java.util.List;
import org.apache.ibatis.annotations.Param;

/**
 * The MyBatis mapper of the credential store; the SQL lives in {@code CredentialMapper.xml} beside this interface.
 * Each write is one conditional statement returning its affected-row count, 1 or 0.
 */
interface CredentialMapper {
    CredentialRow selectCredential(@Param("key") String key);

    /**
     * The first write: inserts version 1 unless the key exists, or writes over its tombstone one version on (a
     * concurrent first write waits, then does nothing); the new version, or null when a live credential is stored.
     */
    Long insertFirst(@Param("key") String key, @Param("sealed") byte[] sealed, @Param("now") Instant now);

    /**
     * Every later write: version + 1 if the stored version is {@code expected}. A concurrent update of the row waits
     * for the row lock and re-checks the version on the row the winner committed, so it then matches nothing.
     */
    int replace(@Param("key") String key, @Param("expected") long expected, @Param("sealed") byte[] sealed,
            @Param("now") Instant now);

    /** Leaves a tombstone one version on; 1 when there was a credential. */
    int deleteCredential(@Param("key") String key, @Param("now") Instant now);

    List<String> selectKeys();
}
