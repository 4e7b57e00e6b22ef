// The gateway's error messages the console shows (admin API refusals, the console's own network errors) in Chinese.

/**
 * An error's English pattern and its Chinese rendering (`$1`… are the pattern's groups). The field names the gateway
 * quotes (`input_per_mtok`, `expires_at`) stay as written: they are the API's words.
 */
export const ZH_ERRORS: readonly [RegExp, string][] = [
  [
    /^Cannot reach the gateway\. Check that `gatehouse serve` \(or the desktop app\) is still running, then retry\.$/,
    '无法连接网关。请确认 `gatehouse serve`（或桌面应用）仍在运行，然后重试。',
  ],
  [/^The gateway refused the credentials \(HTTP 401\)\.$/, '网关拒绝了凭据（HTTP 401）。'],
  [/^The gateway answered HTTP (\d+)$/, '网关返回了 HTTP $1'],
  [/^The gateway answered HTTP (\d+): ([\s\S]*)$/, '网关返回了 HTTP $1：$2'],
  [/^Unknown account "(.+)": create a token for it on the Tokens page first$/, '未知账户“$1”：请先在“令牌”页面为它创建令牌'],
  [/^Token (\S+) does not exist$/, '令牌 $1 不存在'],
  [/^Only a revoked token can be deleted: revoke it first$/, '只能删除已吊销的令牌：请先吊销它'],
  [/^Journal entry (\S+) does not exist \(the journal keeps the newest (\d+)\)$/, '日志条目 $1 不存在（日志只保留最新的 $2 条）'],
  [/^This server cannot restart itself: restart the app that runs it$/, '此服务器无法自行重启：请重启运行它的应用'],
  [/^Channel (.+) does not exist$/, '渠道 $1 不存在'],
  [
    /^No runtime fixture has the id (.+) \(fixtures loaded from files cannot be changed here\)$/,
    '没有 id 为 $1 的运行时固定应答（从文件加载的固定应答不能在这里修改）',
  ],
  [/^expires_at must be in the future$/, 'expires_at 必须是将来的时间'],
  [/^quota must be a non-negative amount, e\.g\. 5 or 2\.50$/, 'quota 必须是非负金额，例如 5 或 2.50'],
  [/^name must be a string of at most (\d+) characters$/, 'name 必须是最多 $1 个字符的字符串'],
  [/^model must name a model$/, 'model 必须指明一个模型'],
  [
    /^(\w+) must be a number of USD from 0 to (\d+) with at most (\d+) decimals; got ([\s\S]*)$/,
    '$1 必须是 0 到 $2 之间的美元金额，最多 $3 位小数；收到的是 $4',
  ],
];
