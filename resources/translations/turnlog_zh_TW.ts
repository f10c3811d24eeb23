<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_TW">
<context>
    <name>AboutDialog</name>
    <message>
        <source>Version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data directory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Log file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Installed: Turnlog can chat offline with it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not installed here. %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A chat client for OpenAI-compatible endpoints that keeps every turn and shows what each request carried.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;Application id: %1&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Built-in local model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>License: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Served by llama-cpp-python (MIT), started by Turnlog on 127.0.0.1 only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open data folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the data directory, %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the data folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open log folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the folder of the log file, %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AnswerView</name>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reasoning…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reasoning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 · %3 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (click to show)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Changes</name>
    <message>
        <source>Deleted %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Removed %n API key(s).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CrashDialog</name>
    <message>
        <source>Turnlog hit a bug</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bug report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Something went wrong inside Turnlog. Your conversations are safe: the log only changes when an answer is complete. Copy the report below when you tell the developers about it; it holds no API key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bug report text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy report</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Failure</name>
    <message>
        <source>Nothing to send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The question contains text that cannot be sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Too large to send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server took too long</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rate limited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key was refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server says the request is too large</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server returned an error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not reach the server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server sent something that is not a chat reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The reply was empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The reply stopped before it was complete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The reply was cut off at the output limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The reply did not say it was finished</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The reply ended for an unexpected reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The conversation is larger than the model&apos;s context window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The reply was larger than the response limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The request ran past its time limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The answer could not be saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The summary of older turns failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compaction hit its limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The built-in model could not start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The conversation was deleted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key would travel unencrypted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>While %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>While %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your question is back in the box below.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>.</source>
        <comment>the full stop that ends a sentence</comment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FailureBanner</name>
    <message>
        <source>Problem with the last request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the message and any partial answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the problem report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the question again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss the problem</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The answer so far (not saved):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Partial answer, not saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send again (%1 s)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FailureHint</name>
    <message>
        <source>Raise the byte limit or the context window, or turn compaction off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Raise the byte limit or context window, or turn compaction off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try again, or turn compaction off for this conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send again, or turn compaction off for this conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a question first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Raise the output limit (output reserve) and send again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send again or try another model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete or retype that character and send again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install the local extra: pip install &quot;turnlog[local]&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set the context window in the profile, or start a new conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the base URL: it should point at an OpenAI-compatible API (usually ending in /v1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask for a shorter answer or lower the output limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the base URL in the profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Some servers do this when the conversation is larger than the model&apos;s context window; try a smaller context window in the profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use that address as the base URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check that the server is running and reachable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the base URL and that the server is running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add the key in the profile settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paste the key again in the profile settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the API key in the profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lower the context window in the profile or start a new conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the model name and the base URL in the profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lower the request size limit in the conversation settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use an https:// address, or allow sending the key unencrypted for this profile (Settings, or turnlog-cli profile add --allow-insecure-key) if the network between you is your own</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close other programs using it and try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore it from a backup or move it aside to start fresh.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free some space and try again; nothing was lost.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the permissions of the file and its folder, and that the disk is not read-only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check that the data folder exists and that Turnlog may open files in it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The disk may be failing or was removed; check it, then try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send again, or raise the time limit if the server is slow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send again, or raise “Time to first token” in the profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose another GGUF file in Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>See the local model log for details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wait a moment and send again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry after %1 s</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>HeaderPicker</name>
    <message>
        <source>server default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>temperature %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>top_p %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max %1 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sampling: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>server defaults</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider profile in use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider profile requests go to (as in Settings)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Profile:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model of this conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This conversation&apos;s model: pick one the server lists, or type a name and press Enter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fetch the server&apos;s models again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask the server for its models again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sampling settings of this conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top p</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max output tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The longest answer to ask for (max_tokens); the token budget keeps this much room for it. Server default leaves the field out and keeps the output reserve.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Temperature:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top &amp;p:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max &amp;output:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>started by Turnlog</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No provider: open Settings (Ctrl+,)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1  (%2 tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asking the server for its models…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server lists no models; type the name instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The models could not be listed: %1 You can type the name.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>HistoryActions</name>
    <message>
        <source>Stop the running request before deleting a turn.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Title:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the keyring</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a conversation to export first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported %n turn(s) (%1 bytes) to %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not export the conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file could not be written: %1. Choose another place and export again (Ctrl+E).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ImportExport</name>
    <message>
        <source>Import conversations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conversations (*.jsonl *.json *.zip);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export all conversations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder (*);;Zip archive (*.zip)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Importing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exporting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exporting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import finished</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %n conversation(s) read; %2 turns imported into %3 conversations.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export finished</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported %n conversation(s) (%1 turns) to %2: a JSON-lines file (File → Import… reads it back) and a Markdown file for each.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import cancelled: nothing was imported.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export cancelled: nothing was written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not import %1: %2. Nothing was imported.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not export %1: %2. Nothing was written.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Inspector</name>
    <message>
        <source>No request yet. Type a question: the request it would make appears here before anything is sent — its exact body, its size in bytes and tokens against the limits, and which turns it carries.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model, options, brackets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>system prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>preference, kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pinned facts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>note, kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rolling summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>current question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>earlier side question (question + answer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>estimated, calibrated from %n reply(s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>estimated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 server default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max output tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tokens (reported by the server)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>~%1 tokens (estimated)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 bytes · %2 — shown above the answer, kept with the turn, never sent in later requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>… (the rest is not shown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request inspector</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sampling options in the body</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Body bytes against the byte limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input tokens against the input budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What-if byte limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try another byte limit: the marks show which turns would be sent. Nothing is sent or saved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Back to the real byte limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parts, in the order they are sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request parts with their sizes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Part</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rolling summary and where it came from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rolling summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Facts the summary may have dropped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outcome:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timing:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reasoning size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reasoning:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exact request body, pretty-printed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sampling: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · window %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Body: %1 of %2 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> — over the limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input: %1 of %2 tokens (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> — over the budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Body: nothing to measure yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input: nothing to measure yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>turn %1 (question + answer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>total = the body</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mandatory part (system, pinned, question)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Carries %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stands in for %1 of the log as it is now.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 before it: not sent.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Made in %n call(s):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  call %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Carries a summary of the oldest %1 turns (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sending first folds %1 into the summary (marked to be summarized); the body then carries the new summary, so its size is known only after that.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summary calls in this request: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⚠ The key-fact check found facts from the covered turns missing in this summary; the model will not see them: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” (&lt;a href=&apos;%2&apos;&gt;Pin&lt;/a&gt;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exact body: none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exact body, pretty-printed here; sent compact as %1 bytes of UTF-8:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>answered and saved as turn %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>would be refused: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting for the answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not sent (preview)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; will compact: sending first summarizes %1, then the body changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; final: this body is exactly what Send puts on the wire</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, first text after %1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (attempt %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 completion</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 total</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of them reasoning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> tokens (reported by the server)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not reported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What if: no byte limit to vary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What if the byte limit were different? Drag to preview (now %1 bytes).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What if the limit were %1 bytes: %2 of %3 turns would be sent. Nothing is sent or saved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What if the limit were %1 bytes: the question would be refused. Nothing is sent or saved.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LanguageMenu</name>
    <message>
        <source>&amp;Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Applied when Turnlog starts again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System language</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LivePreview</name>
    <message>
        <source>Request in flight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview of the next request — nothing is sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What-if preview — nothing is sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last request — answered and saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last request — not saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Marks show the request being answered:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Marks show the last request:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Marks show what would be sent if the limit were %1 bytes:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Marks show what the next request would carry:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 / %2 bytes · %3%4 / %5 tokens (%6)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The request body if you sent now (exact bytes on the wire) and its input tokens (%1), each against its limit. Context window: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The conversation&apos;s limits are not valid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 Fix it in Settings (Ctrl+,).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open or start a conversation first (Ctrl+N).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Too large to send: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · model %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Conversations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inspector</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not load this conversation: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a question below to start a conversation, or press New (Ctrl+N).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No turns yet. Type a question below and press Ctrl+Enter.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turnlog hit a bug while sending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing was saved and your question is back in the box below. The bug report has the details.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MemoryPanel</name>
    <message>
        <source>preference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>note</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>larger than the memory share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no room: items of higher total priority fill the share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>approximate choice: greedy, beyond the bounds of the exact one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exact choice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memory share (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>left out, %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 p%2 “%3”: %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Priority of the %1 (1–5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>a button and what it acts on</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> % of each budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory share for preferences and notes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use preferences in this conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory share:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pinned facts — always sent, word for word</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pinned fact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use in all conversations (as a preference)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes — sent when the memory share has room</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preferences — every conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⚠ The summary lacks pinned facts: %1. The pins are sent word for word regardless.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>left out: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>typed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>turn %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not in this request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>off in this conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share: %1 bytes, %2 tokens; %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>approximate choice (greedy)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pin from turn %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select the words to pin:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn %1 is not loaded: scroll up to it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pin from this turn…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PinMarks</name>
    <message>
        <source>Pinned: “%1”</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Privacy</name>
    <message>
        <source>The text is overwritten in the database file (secure delete) and the write-ahead log is emptied, so it cannot be brought back. Export first if you want a copy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%n conversation(s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%n turn(s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%n summary(s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%n request record(s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%n pinned fact(s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%n side question(s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON lines (*.jsonl)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also delete the %n fork(s) holding copies of its turns (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also delete its %n other version(s) (with them: %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep the %n pinned fact(s) taken from it, as typed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also delete the %n pinned fact(s) taken from this turn?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also delete the %n preference(s) used in every conversation?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also remove the API keys of %n provider profile(s) (%1) from %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ProfileNetwork</name>
    <message>
        <source>⚠ Plain http:// to another machine: an API key sent here can be read by anyone on the network in between. Use https:// if the server offers it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the API key to this address unencrypted (only on a network you trust)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow sending the key unencrypted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CA certificate file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System certificates only (PEM file to trust as well)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CA certificate:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time to first token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time to &amp;first token:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try again by itself after 429, 502–504 or a refused connection (3 attempts within 60 s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry automatically</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Default (%1 s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key would travel unencrypted to another machine over plain http://. Use an https:// address, or tick “Send the API key to this address unencrypted” if the network in between is your own.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a CA certificate (PEM)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Certificates (*.pem *.crt);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ProviderConnector</name>
    <message>
        <source>No provider set up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a provider, its address and a model in Settings (Ctrl+,) to send.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The built-in model is not available here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” runs inside Turnlog, which was started without it. Choose another provider in Settings (Ctrl+,).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · running on %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · starts with the first question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model chosen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick a model for “%1” in Settings (Ctrl+,) to send.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RowMark</name>
    <message>
        <source>sent this time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>to be summarized</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>asked this time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replaced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>carried verbatim in the request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stood in for by the rolling summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not in the summary yet: sending first folds it into the rolling summary (a summary call to the model)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>kept in the log, left out of the request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the question being answered now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the question of the last request, now answered and saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an older version, replaced by a newer one (regenerated or edited): kept in the log, never sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no turns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>turn %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>turns %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>usage not reported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 completion</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 total</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%n turn(s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>summary #%1 of %2 (%3), made by %4 on %5, %6 bytes, ~%7 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn %1 is in the rolling %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warning: the summary may have dropped %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Legend of the turn marks</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SearchPanel</name>
    <message>
        <source>Conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Date</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Snippet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>title</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>turn %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (superseded)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search all conversations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search the text of all conversations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Words match as prefixes, &quot;quoted phrases&quot; exactly, Chinese words of any length; Esc clears</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search results: conversation, turn, date and snippet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing matches.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The best %1 matches.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%n match(es).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not search: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search all &amp;text…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find a turn in any conversation by its words</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A request is running: stop it or let it finish, then open the result.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SendSession</name>
    <message>
        <source>Preparing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Organizing turns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compacting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting local model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answering</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retrying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1… %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · %1 characters of reasoning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · %1 characters</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What needs fixing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider preset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Preset:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Base &amp;URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a model name or fetch the list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Fetch models</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fetch the server&apos;s model list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave empty to keep the stored key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API &amp;key:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep the key for this session only (not saved)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep the key for this session only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model file (GGUF)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The built-in SmolLM2-135M (leave empty)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C&amp;hoose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a GGUF model file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B&amp;uilt-in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the built-in model file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model &amp;file:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context window in tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context &amp;window:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output reserve in tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Output reserve:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Side questions&apos; output reserve in tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens kept for a side question&apos;s answer (Ask aside), independent of the conversation&apos;s output reserve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Side &amp;questions&apos; reserve:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Byte limit of the request body</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Byte limit:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summarize turns that no longer fit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verbatim share after compacting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When a request no longer fits, older turns are summarized until the newest turns take at most this share of the budget; new turns then accumulate verbatim until the next summary is needed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keep verbatim:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;System prompt:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 The key will be kept for this session only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key is kept in memory until Turnlog quits.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stored in: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tokens (as the running server reports)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tokens (the server confirms it when it starts)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>License: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context window: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turnlog starts it on 127.0.0.1 with the first question and stops it on exit; no key, no network.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note: %1 It is fine for trying Turnlog, not for real work.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose or type a model name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The context window (%1 tokens) leaves no room for input after the output reserve (%2) and the safety margin (%3). Raise the window or lower the reserve.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asking the server for its models…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1  (%2 tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server lists %n model(s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server lists no models; type the name instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 You can type the model name instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider could not be saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SidePanel</name>
    <message>
        <source>No side questions in this conversation yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%n side question(s), apart from the conversation&apos;s usage: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> — %n failed side request(s) included: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask about this conversation without adding to it. Answers stay here, not in the transcript.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Side questions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Side answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep as a turn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Append this side question and its answer to the conversation as a normal turn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Side request inspector</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Side question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask aside… (Ctrl+Enter here, or Ctrl+Shift+Enter in the composer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask aside</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask a side question about this conversation (Ctrl+Shift+Enter in the composer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turnlog hit a bug while asking aside; the bug report has the details.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Side questions could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No side question yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a conversation first: a side question is about one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot ask</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request in flight: a side question about this conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting for the answer (a side question: the conversation does not change)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last side question: answered, kept apart from the conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>answered; kept in the side panel, not in the conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last side question: not answered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What arrived before it ended (not kept):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your side question is back in the box.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>side question · own output reserve %1 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · summary: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · recent window: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · left out: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · earlier side questions carried: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing asked yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The side answer was not kept as a turn: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kept the side answer as turn %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Sidebar</name>
    <message>
        <source>Untitled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
last active %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search titles and text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search conversation titles and text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keeps the conversations whose title or turns match (Ctrl+Shift+F lists the matching turns)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New conversation (Ctrl+N)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conversations, newest first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No conversations yet. Press New to start one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename the selected conversation (F2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the selected conversation and all its turns (Delete)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No conversation matches the search.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Stage</name>
    <message>
        <source>starting local model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>preparing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>organizing turns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>compacting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>answering</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>retrying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>chunk %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in %1 s (attempt %2 of %3)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Startup</name>
    <message>
        <source>Turnlog cannot write to its data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The disk holding Turnlog&apos;s data is full</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turnlog&apos;s database is damaged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turnlog&apos;s database is in use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turnlog is already open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database is from a newer Turnlog</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turnlog cannot open its data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The disk reported an error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switch to the Turnlog window that is already open, or close it and start Turnlog again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install the newer Turnlog that wrote it, or start this one with another data folder (TURNLOG_HOME).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turnlog is indexing your conversations for search. This happens once.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Updating %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turnlog is indexing your conversations for search (%1 of %2 turns). This happens once.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not write %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 Saved to %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export what can be read…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quit</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>StorageFaults</name>
    <message>
        <source>The change could not be saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database is damaged, so Send is off: nothing is written into it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export what can be read…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing will be written into it.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Transcript</name>
    <message>
        <source>Turn %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn %1%2. Question: %3
Answer: %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pending question: %1
Answer so far: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>version %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use this version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>↻ Regenerate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Question being answered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for the answer…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conversation history</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every saved turn of the conversation, oldest first, with how each took part in the request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy turn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy code block</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the code block under the pointer (else the answer&apos;s first one), exactly as it is</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete turn…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete this turn and everything derived from it (summaries covering it, its place in request records)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show or hide reasoning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open or fold what a reasoning model thought before this answer</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>VersionControls</name>
    <message>
        <source>Regenerate answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit and resend…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use this version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fork from here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not change the versions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wait for the running request (or stop it) first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no answer to regenerate yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Editing turn %1: Send makes a new version of it (the old one is kept). Esc leaves everything as it was.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn %1 is already the version in use.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn %1 is the version in use now.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
