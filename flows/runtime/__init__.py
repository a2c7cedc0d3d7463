"""The process settings a command sets before it does any work: glibc's allocator (`malloc`), Arrow's
memory pool (`arrow_memory`), the garbage collector during a build (`collector`), and Prefect's settings
(`settings`). Each is set through the environment as well, so the processes a command starts inherit it."""
