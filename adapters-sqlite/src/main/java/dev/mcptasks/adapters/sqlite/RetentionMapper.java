package dev.mcptasks.adapters.sqlite;

import org.apache.ibatis.annotations.Param;

/** The SQL of retention ({@code RetentionMapper.xml} beside it); each delete takes one bounded batch. */
interface RetentionMapper {
    int deleteFinished(@Param("status") String status, @Param("before") long before, @Param("limit") int limit);

    long countFinished(@Param("status") String status, @Param("before") long before);

    int deleteExpired(@Param("now") long now, @Param("limit") int limit);

    long countExpired(@Param("now") long now);
}
