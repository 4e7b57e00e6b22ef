// The errors the gateway itself answers API calls with (the Logs page shows them) in Chinese; upstream errors and details (files, fields, models) stay as written.

/** An API error's English pattern and its Chinese rendering (`$1`… are the pattern's groups). */
export const ZH_API_ERRORS: readonly [RegExp, string][] = [
  [/^Missing API token: send it as Authorization: Bearer <token>$/, '缺少 API 令牌：请以 Authorization: Bearer <token> 发送'],
  [/^Invalid API token$/, '无效的 API 令牌'],
  [/^This API token has been revoked$/, '此 API 令牌已被吊销'],
  [/^This API token has expired$/, '此 API 令牌已过期'],
  [/^This API token has used up its quota$/, '此 API 令牌的额度已用完'],
  [/^This call could cost more than what is left of this API token's quota$/, '此调用的花费可能超过此 API 令牌剩余的额度'],
  [/^This API token may not use the model "(.+)"; it is limited to: ([\s\S]+)$/, '此 API 令牌不能使用模型“$1”；它只能使用：$2'],
  [/^The model '(.+)' does not exist; the channels serve: ([\s\S]+)$/, '模型“$1”不存在；各渠道提供：$2'],
  [/^The model '(.+)' does not exist$/, '模型“$1”不存在'],
  [/^No channel serving model '(.+)' answered \(([\s\S]*)\)\.$/, '服务模型“$1”的渠道都没有应答（$2）。'],
  [
    /^Every channel serving model '(.+)' is cooling down after failures; try again shortly\.$/,
    '服务模型“$1”的渠道都在失败后冷却中，请稍后重试。',
  ],
  [/^Rate limit reached \(simulated by x-gatehouse-fault: 429\)$/, '已达到速率限制（由 x-gatehouse-fault: 429 模拟）'],
  [/^The server had an error while processing your request \(simulated fault 500\)$/, '服务器处理请求时出错（模拟故障 500）'],
  [/^The service is temporarily unavailable \(simulated fault 503\)$/, '服务暂时不可用（模拟故障 503）'],
  [/^Overloaded \(simulated fault 529\)$/, '过载（模拟故障 529）'],
  [/^Unknown endpoint: (\S+) (\S+)$/, '未知端点：$1 $2'],
  [/^Request body is too large$/, '请求体过大'],
  [
    /^No fixture matched this (\S+) call \(strict mode\)\. The closest is (".+?"): ([\s\S]*)\.$/,
    '没有固定应答匹配此 $1 调用（严格模式）。最接近的是 $2：$3。',
  ],
  [
    /^No fixture matched this (\S+) call \(strict mode\)\. No fixture is loaded for test id (".+")\.$/,
    '没有固定应答匹配此 $1 调用（严格模式）。测试 ID $2 没有加载任何固定应答。',
  ],
  [
    /^No fixture matched this (\S+) call \(strict mode\)\. No fixture is loaded\.$/,
    '没有固定应答匹配此 $1 调用（严格模式）。没有加载任何固定应答。',
  ],
  [/^No fixture matched this (\S+) call \(strict mode\)\.\s*([\s\S]*)$/, '没有固定应答匹配此 $1 调用（严格模式）。$2'],
  [
    /^No cassette matched this call \(replay, miss: error\)\. The closest is (\S+); the first field that differs is (\S+) \(recorded ([\s\S]*), this call ([\s\S]*)\)\.([\s\S]*)$/,
    '没有录制带匹配此调用（回放，未命中时：error）。最接近的是 $1；第一个不同的字段是 $2（录制时为 $3，此调用为 $4）。$5',
  ],
  [
    /^No cassette matched this call \(replay, miss: error\)\. The cassette folder is empty\.$/,
    '没有录制带匹配此调用（回放，未命中时：error）。录制带文件夹是空的。',
  ],
  [/^No cassette matched this call \(replay, miss: error\)\.\s*([\s\S]*)$/, '没有录制带匹配此调用（回放，未命中时：error）。$1'],
  [/^The upstream broke off the answer mid-way\.$/, '上游在回答途中中断。'],
  [/^The caller went away before the upstream answered\.$/, '调用方在上游应答前已离开。'],
  [/^The relayed stream failed\.$/, '转发的流失败了。'],
];
