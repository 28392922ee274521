#ifndef PLACEINDEX_CMICROHTTPD_SHIM_H
#define PLACEINDEX_CMICROHTTPD_SHIM_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// MHD_start_daemon is variadic, which Swift cannot call: this fixed-argument helper passes the
/// options placeidx serve uses. `listen_fd` is a socket the caller has bound and is listening on;
/// MHD_USE_ITC lets MHD_quiesce_daemon stop a thread pool from accepting.
static inline struct MHD_Daemon *placeidx_mhd_start(
    unsigned int flags, int listen_fd, unsigned int threads, unsigned int connection_limit,
    unsigned int per_ip_limit, unsigned int idle_timeout_seconds, size_t memory_limit,
    MHD_AccessHandlerCallback handler, MHD_RequestCompletedCallback completed,
    MHD_NotifyConnectionCallback notify, void *context) {
  struct MHD_OptionItem options[] = {
      {MHD_OPTION_LISTEN_SOCKET, listen_fd, NULL},
      {MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)threads, NULL},
      {MHD_OPTION_CONNECTION_LIMIT, (intptr_t)connection_limit, NULL},
      {MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)per_ip_limit, NULL},
      {MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)idle_timeout_seconds, NULL},
      {MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)memory_limit, NULL},
      {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, context},
      {MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)notify, context},
      {MHD_OPTION_END, 0, NULL},
  };
  return MHD_start_daemon(flags, 0, NULL, NULL, handler, context, MHD_OPTION_ARRAY, options,
                          MHD_OPTION_END);
}

/// The socket of a connection, or -1.
static inline int placeidx_mhd_connection_fd(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  return info == NULL ? -1 : info->connect_fd;
}

#endif
