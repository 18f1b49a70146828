-- Fixed rate-limit windows when there is no Redis. UNLOGGED: counters live a minute, so they skip
-- the WAL (much cheaper per request); a crash empties the table, which only restarts the windows.
CREATE UNLOGGED TABLE rate_windows (
  key          text NOT NULL,
  window_start bigint NOT NULL, -- epoch milliseconds
  expires_at   bigint NOT NULL, -- epoch milliseconds: the window's end
  count        integer NOT NULL,
  PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_windows_expires_at ON rate_windows (expires_at);
