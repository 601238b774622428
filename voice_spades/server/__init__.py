"""The table server: authoritative matches, their stored logs, the wire protocol's far end."""
