-- Reservations: a call of a tool with effects outside (an HTTP tool, an operator's module with
-- `effects: "external"`) is recorded `pending`, its credits and cap slot held, before the tool
-- acts; it is then captured (charged) or released (refunded), and one left pending by a process
-- that died is released by the sweep once it is older than TOOLRUN_CALL_ABANDON_S
-- (adapters/sqlite/ledger.ts). Pending rows are few and short-lived, so both lookups go through
-- partial indexes that hold only them: the calls of the tools that only compute, recorded charged
-- or refunded at once, never enter either and pay nothing for them.
CREATE INDEX usage_calls_pending_call_id ON usage_calls (call_id) WHERE status = 'pending';
CREATE INDEX usage_calls_pending_at ON usage_calls (at) WHERE status = 'pending';
