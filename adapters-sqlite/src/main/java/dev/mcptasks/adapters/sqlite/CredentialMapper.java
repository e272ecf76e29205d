package dev.mcptasks.adapters.sqlite;

import java.util.List;
import org.apache.ibatis.annotations.Param;

/**
 * The SQL of the credential store ({@code CredentialMapper.xml} beside it). Each write is one conditional statement
 * returning its affected-row count, 1 or 0: the compare-and-set needs no read before it, and SQLite's single writer
 * makes each statement atomic.
 */
interface CredentialMapper {
    CredentialRow selectCredential(@Param("key") String key);

    /**
     * The first write: inserts version 1 unless the key exists, or writes over its tombstone one version on; the new
     * version, or null when a live credential is stored.
     */
    Long insertFirst(@Param("key") String key, @Param("sealed") byte[] sealed, @Param("now") long now);

    /** Every later write: version + 1 if the stored version is {@code expected}. */
    int replace(@Param("key") String key, @Param("expected") long expected, @Param("sealed") byte[] sealed,
            @Param("now") long now);

    /** Leaves a tombstone one version on; 1 when there was a credential. */
    int deleteCredential(@Param("key") String key, @Param("now") long now);

    List<String> selectKeys();
}
