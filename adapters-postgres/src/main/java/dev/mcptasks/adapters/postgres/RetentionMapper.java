package dev.mcptasks.adapters.postgres;

import java.time.Instant;
import org.apache.ibatis.annotations.Param;

/** The SQL of retention ({@code RetentionMapper.xml} beside it); each delete takes one bounded batch. */
interface RetentionMapper {
    int deleteFinished(@Param("status") String status, @Param("before") Instant before, @Param("limit") int limit);

    long countFinished(@Param("status") String status, @Param("before") Instant before);

    int deleteExpired(@Param("now") Instant now, @Param("limit") int limit);

    long countExpired(@Param("now") Instant now);
}
