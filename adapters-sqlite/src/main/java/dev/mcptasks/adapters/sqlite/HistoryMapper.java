package dev.mcptasks.adapters.sqlite;

import java.util.List;
import java.util.Map;
import org.apache.ibatis.annotations.Param;

/** The read of a task's claim history ({@code HistoryMapper.xml} beside it); claims insert by plain JDBC. */
interface HistoryMapper {
    List<Map<String, Object>> selectHistory(@Param("taskId") String taskId);
}
