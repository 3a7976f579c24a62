"""The Lesson page: a path of stations, each a question before its live answer."""

EN = {
    "nav.lesson": "Lesson: start here",
    "lesson.title": "Lesson: multi-head attention in 12 stations",
    "lesson.intro": "Each station asks one question **before** it shows you anything. Answer, then "
    "the page shows the live answer on your sentence (sidebar), explained with the numbers on "
    "the screen. Change the sentence or the settings and every question is asked again on the "
    "new numbers.",
    "lesson.station": "Station",
    "lesson.station_label": "{n}. {title}",
    "lesson.end_label": "Summary",
    "lesson.quiz": "Quiz mode",
    "lesson.quiz_help": "For a class: no answer is shown before it is answered (the “Show the "
    "answer” button disappears).",
    "lesson.prev": "← Previous",
    "lesson.next": "Next →",
    "lesson.check": "Check my answer",
    "lesson.show": "Show the answer",
    "lesson.your_answer": "Your answer",
    "lesson.right": "Right.",
    "lesson.wrong": "Not this time: you chose {chosen}; the answer on these numbers is {answer}.",
    "lesson.skipped": "You asked to see the answer: {answer}.",
    "lesson.stale": "You answered this station under other settings or another sentence. The "
    "numbers have changed since, so that answer is not graded: answer again.",
    "lesson.hidden": "Answer the question to see the live answer.",
    "lesson.hidden_quiz": "Quiz mode: answer the question to see the live answer.",
    "lesson.explore": "Explore this on the {page} page",
    "lesson.explore_help": "Opens that page with the same sentence and settings.",
    "lesson.needs": "This station needs something your input does not have: {why}",
    "lesson.needs_two": "at least two tokens. Type a second word in the sidebar.",
    "lesson.needs_text": "a sentence. Type one in the sidebar.",
    "lesson.unavailable": "This station's model could not be loaded here ({error}).",
    "lesson.token_option": "{i}: {token}",
    "lesson.token_at": "{token} (token {i})",
    "lesson.bytes": "{n} bytes",
    "lesson.capped": "This figure shows tokens {a} to {b} of the {n} (at most {limit}); the "
    "numbers in the text use every token.",
    "lesson.attention": "attention",
    "lesson.layer": "layer",
    "lesson.head": "head",
    "lesson.share": "share",
    "lesson.value": "value",
    "lesson.head_option": "head {h}",
    "lesson.progress": "Answered on the numbers on the screen: {answered} of {total}; right: {right}.",
    "lesson.teacher": "Teacher's link",
    "lesson.teacher_intro": "This link opens the lesson at this station with this sentence and "
    "these settings, quiz mode as set here, and no answers:",
    "lesson.end_title": "Summary",
    "lesson.end_score": "You got **{right} of {total}** right on the numbers on the screen.",
    "lesson.end_stale": "Answered under other settings (answer again): {n}.",
    "lesson.end_revisit": "Stations to revisit:",
    "lesson.end_none": "Nothing to revisit: every station answered right.",
    "lesson.end_status.right": "right",
    "lesson.end_status.wrong": "wrong",
    "lesson.end_status.shown": "answer shown",
    "lesson.end_status.stale": "answered under other settings",
    "lesson.end_status.open": "not answered",
    "lesson.go": "Go to station {n}: {title} ({status})",
    # 1
    "lesson.why.title": "Why attention",
    "lesson.why.text": "To read “attention is not too shabby” you must relate “not” to "
    "“shabby”. The simplest mix of the words' value vectors sums them with equal weights, 1/T "
    "each, as if every pair of words mattered alike. Misha Laskin's thread on multi-head "
    "attention (post 5) puts it this way: naive summing assumes the relationships between all "
    "words are equal. Attention instead gives every pair its own weight.",
    "lesson.why.q": "Head {h} computes weights for the token {q}. Which token does it give "
    "the most weight?",
    "lesson.why.explain": "Head {h} gives {q} **{w}** on {top}; equal weights would give each of "
    "the {n} tokens 1/{n} = {u}, so the largest weight is {ratio} times the equal share. This "
    "layer is random (seeded, untrained): a trained model learns which pairs matter.",
    "lesson.why.fig": "Head {h}, the weights of {q}: equal (1/T) against attention",
    # 2
    "lesson.qkv.title": "Queries, keys and values",
    "lesson.qkv.text": "Each token's vector x is projected three ways: a query q = x W_Q (what it "
    "looks for), a key k = x W_K (what it offers) and a value v = x W_V (what it passes on). "
    "Token i scores token j with the dot product q_i · k_j: large when the two vectors point the "
    "same way (Vaswani et al. 2017, §3.2.1).",
    "lesson.qkv.q": "In head {h}, which key gets the highest score q · k from the token {q}?",
    "lesson.qkv.explain": "In head {h}, {q} scores {top} highest: q · k = **{score}**{second}. "
    "These are the raw scores, before scaling and the softmax.",
    "lesson.qkv.second": "; next comes {top} with {score}",
    "lesson.qkv.fig": "Head {h}: raw scores q · k (row: query, column: key)",
    # 3
    "lesson.scaling.title": "Scaling by 1/√d_k",
    "lesson.scaling.text": "If the components of q and k are independent with mean 0 and variance "
    "1, q · k has variance d_k (Vaswani et al. 2017, §3.2.1, footnote 4). Large scores push the "
    "softmax to one-hot, where its gradients vanish; so scores are divided by the standard "
    "deviation √d_k, not by the variance d_k, which would shrink them too far as d_k grows.",
    "lesson.scaling.q": "d_k goes from {lo} to {hi} (4 times larger). By about how much does the "
    "spread (standard deviation) of q · k grow?",
    "lesson.scaling.opt.1": "it stays the same (×1)",
    "lesson.scaling.opt.2": "×2",
    "lesson.scaling.opt.4": "×4",
    "lesson.scaling.opt.16": "×16",
    "lesson.scaling.explain": "Measured on {n} random pairs (seed {seed}): std(q · k) is {std_lo} "
    "at d_k = {lo} and {std_hi} at d_k = {hi}, a ratio of **{ratio}**, against √({hi}/{lo}) = "
    "{sqrt_ratio}. The variance grew 4 times, the spread 2 times: that is why the scores are "
    "divided by √d_k.",
    "lesson.scaling.fig": "std(q · k) against d_k, measured and √d_k",
    # 4
    "lesson.softmax.title": "Softmax and the weighted sum",
    "lesson.softmax.text": "The softmax turns a row of scores into weights: each is e^score "
    "divided by the sum over the row, so the weights are positive and add up to 1, and the "
    "highest score gets the largest weight. The token's output is the weighted sum of the value "
    "vectors.",
    "lesson.softmax.q": "In head {h}, how much weight does the token {q} give its top key?",
    "lesson.share.lt25": "less than 0.25",
    "lesson.share.25to50": "0.25 to 0.5",
    "lesson.share.50to75": "0.5 to 0.75",
    "lesson.share.gt75": "more than 0.75",
    "lesson.softmax.explain": "Head {h} gives {q} **{w}** on {top}, its top key; the row sums to "
    "{total}. Its output is {w} × v({top}) plus the other weights times their values.",
    "lesson.softmax.fig": "Head {h}: attention weights (each row sums to 1)",
    # 5
    "lesson.heads.title": "Many heads",
    "lesson.heads.text": "Multi-head attention runs h heads side by side, each on d_k = "
    "d_model/h dimensions, concatenates their outputs and mixes them with W_O. h heads of "
    "d_model/h cost about what one full-width head costs (Vaswani et al. 2017, §3.2.2): the "
    "projections hold 4 d_model² weights whatever h is. Heads differ: some look near, some far.",
    "lesson.heads.q": "Which head looks farthest: the largest mean attention distance "
    "(Σ_j w_ij |i − j|, in tokens, averaged over the queries)?",
    "lesson.heads.explain": "Head {head} has the largest mean distance, **{dist}** tokens; head "
    "{near} the smallest, {near_dist}. All {n_heads} heads together use {params} weights and "
    "biases in W_Q, W_K, W_V and W_O, the same number for any number of heads at d_model = "
    "{d_model}.{cost}",
    "lesson.heads.cost": " Concatenated, the {n_heads} heads' outputs ({n_heads} × {d_k} numbers "
    "a token) make one vector of {d_model} again, which W_O ({d_model} × {d_model}) mixes. Their "
    "scores for your {T} tokens take {n_heads} × {T}² × {d_k} = {mults} multiplications, as many "
    "as one head of width {d_model} would ({T}² × {d_model}).",
    "lesson.heads.fig": "Every head's weights",
    # 6
    "lesson.positional.title": "Positional encoding",
    "lesson.positional.text": "Attention itself ignores order: without positional encoding, "
    "shuffling the words only moves the rows and columns of the attention matrix (A' = P A Pᵀ). "
    "The Transformer adds PE(pos, 2i) = sin(pos/10000^(2i/d_model)) and PE(pos, 2i+1) = "
    "cos(pos/10000^(2i/d_model)) to the embeddings (Vaswani et al. 2017, §3.5).",
    "lesson.positional.q": "With your settings (positional encoding {pe}; mask: {mask}), shuffle "
    "the words of your sentence. What happens to the attention?",
    "lesson.positional.on": "on",
    "lesson.positional.off": "off",
    "lesson.positional.opt.permute": "the same weights, only moved with the words (A' = P A Pᵀ)",
    "lesson.positional.opt.change": "the weights themselves change",
    "lesson.positional.explain": "Measured: the largest |A' − P A Pᵀ| over every head is "
    "**{diff}**. {why}{plain}",
    "lesson.positional.plain": " Without positional encoding and without a mask, the same "
    "shuffle's largest |A' − P A Pᵀ| is {plain} (0 up to float32 rounding): the weights only "
    "move.",
    "lesson.positional.why_permute": "The shuffle only moved the weights: without positions, "
    "attention sees a set of words, not a sequence.",
    "lesson.positional.why_change": "The weights changed: positions (the encoding, or the causal "
    "mask, which is tied to positions) make the order matter.",
    "lesson.positional.fig": "Head 0: A' (the shuffled sentence) and P A Pᵀ (the original, moved)",
    # 7
    "lesson.mask.title": "The decoder's mask",
    "lesson.mask.text": "A decoder generates one token at a time, so while training token i may "
    "not see the tokens after it. The causal mask sets those scores to −∞ before the softmax "
    "(Vaswani et al. 2017, §3.2.3), so their weights are exactly 0.",
    "lesson.mask.q": "With the causal mask, how much weight does the first token, {a}, give the "
    "last token, {b}?",
    "lesson.mask.opt.zero": "exactly 0",
    "lesson.mask.opt.below": "more than 0 but less than 1/T",
    "lesson.mask.opt.above": "1/T or more",
    "lesson.mask.explain": "Under the causal mask, head {h} gives {a} **{w}** on {b}; the largest "
    "weight above the diagonal, over every head, is {above}. The first token sees only itself: "
    "its weight on itself is 1.",
    "lesson.mask.fig": "Head {h} with the causal mask",
    # 8
    "lesson.addnorm.title": "Add & Norm",
    "lesson.addnorm.text": "Each sub-layer's output is added to its input (a residual "
    "connection) and normalised: LayerNorm(x + Sublayer(x)) (Vaswani et al. 2017, §3.1). "
    "LayerNorm (Ba et al. 2016) normalises each token over its own features; BatchNorm (Ioffe & "
    "Szegedy 2015) normalises each feature over the tokens of a batch.",
    "lesson.addnorm.q": "Take x + attention(x) for your sentence and apply LayerNorm (no learned "
    "scale and shift). Which means are then 0?",
    "lesson.addnorm.opt.token": "each token's mean over its features",
    "lesson.addnorm.opt.feature": "each feature's mean over the tokens",
    "lesson.addnorm.opt.both": "both",
    "lesson.addnorm.opt.neither": "neither",
    "lesson.addnorm.explain": "Measured after LayerNorm: the largest |mean of a token over its "
    "features| is **{token_mean}**, the largest |mean of a feature over the tokens| is "
    "**{feature_mean}**. LayerNorm never mixes tokens, so it works the same for one token or a "
    "batch, at training and at test time.{bn}",
    "lesson.addnorm.bn": " BatchNorm on the same x + attention(x) does the opposite: the "
    "largest |mean of a feature over the tokens| is {bn_feature_mean} (0 up to float32 "
    "rounding), while a token's mean over its features stays as large as {bn_token_mean}.",
    "lesson.addnorm.fig": "x + attention(x) after LayerNorm (each row normalised)",
    # 9
    "lesson.transformer.title": "The Transformer: encoder, decoder, cross-attention",
    "lesson.transformer.text": "The encoder reads the source sentence with self-attention; the "
    "decoder reads the target with masked self-attention, then with cross-attention: its "
    "queries come from the target, its keys and values from the encoder's output (Vaswani et "
    "al. 2017, §3.2.3). Here the source is your sentence and the target is “{target}”, through "
    "a seeded, untrained one-layer encoder-decoder.",
    "lesson.transformer.q": "In cross-attention (layer 0, head 0), which source token does the "
    "target token {q} weigh most?",
    "lesson.transformer.explain": "The target token {q} gives **{w}** to {top}. The "
    "cross-attention matrix is {n_tgt} × {n_src}: one row per target token, one column per "
    "source token.",
    "lesson.transformer.fig": "Cross-attention, layer 0, head 0 (rows: target, columns: source)",
    # 10
    "lesson.cost.title": "Cost: O(T²), and what today's models do about it",
    "lesson.cost.text": "Every token scores every token: T² scores per head, in time and in "
    "memory. When generating, a model keeps every past token's keys and values (the KV cache) "
    "instead of recomputing them. Grouped-query attention shares keys and values between heads "
    "(Ainslie et al. 2023) to shrink that cache; FlashAttention computes exact attention in "
    "tiles, with fewer reads and writes of GPU memory, never storing the T × T matrix (Dao et "
    "al. 2022).",
    "lesson.cost.q": "This model has one attention layer, d_model = {d_model}, {n_heads} heads of "
    "d_k = {d_k}, in float32 (4 bytes). How many bytes of KV cache does it need per token?",
    "lesson.cost.opt.c": "d_model × 4 = {value} bytes",
    "lesson.cost.opt.kv": "2 × d_model × 4 = {value} bytes",
    "lesson.cost.opt.kvt": "2 × d_model × 4 × T = {value} bytes",
    "lesson.cost.opt.w": "4 × d_model² × 4 = {value} bytes",
    "lesson.cost.explain": "A key and a value per head per token: 2 × {n_heads} heads × {d_k} × 4 "
    "bytes = **{bytes}** bytes a token, {total} for your {T} tokens. The scores of one step of "
    "plain attention over them take {scores} ({n_heads} × T² × 4 bytes): that part grows with "
    "T². Grouped-query attention divides the cache by the number of heads that share a key/value "
    "head: one shared by all {n_heads} (multi-query attention) would need {mqa} bytes a token "
    "(Ainslie et al. 2023, §2.2). FlashAttention computes the same scores tile by tile in the "
    "GPU's fast on-chip memory and never writes the T × T matrix to its main memory: fewer "
    "memory reads and writes, not fewer multiplications (Dao et al. 2022, §3.1).",
    "lesson.cost.fig": "Memory against the number of tokens T",
    "lesson.cost.kv": "KV cache (2 × d_model × 4 × T)",
    "lesson.cost.scores": "scores (heads × T² × 4)",
    "lesson.cost.x": "tokens T",
    "lesson.cost.y": "bytes",
    # 11
    "lesson.real.title": "A real model: the attention sink and an induction head",
    "lesson.real.text": "In trained language models many heads put much of their weight on the "
    "first token whatever it is, an “attention sink” (Xiao et al. 2023, “Efficient Streaming "
    "Language Models with Attention Sinks”, §3.1). Some heads copy: an “induction head” looks "
    "from a token back to the token that came right after that same token's earlier occurrence, "
    "so that a sequence seen once can be continued (Olsson et al. 2022, “In-context Learning and "
    "Induction Heads”). Here is SmolLM2-135M-Instruct (30 layers × 9 heads) on your sentence, "
    "then on a random sequence repeated twice.",
    "lesson.real.q": "On average over its 270 heads, what share of the last token's attention "
    "goes to position 0?",
    "lesson.real.explain": "Over the {n} heads, the last of the sentence's {T} tokens (SmolLM2's own tokens) puts **{share}** of "
    "its weight on position 0, on average; {over_half} of the {n} heads put more than half there.",
    "lesson.real.fig": "Share of the last token's weight on position 0, per layer and head",
    "lesson.real.induction": "**An induction head.** The same model on {n} random tokens "
    "repeated twice ({T} tokens with the begin token; seed {seed}): of its {total} heads, layer "
    "{layer} head {head} has the highest induction score. Each token of the second copy puts "
    "**{score}** of its weight, on average, on the token right after its earlier occurrence (the "
    "score as Olsson et al. 2022 define it on repeated random tokens); equal weights on every "
    "token it can see would give {chance}. In the figure, the rows of the second copy are "
    "outlined: that weight is the stripe {offset} tokens left of the diagonal.",
    "lesson.real.fig_induction": "Layer {layer}, head {head} on {n} random tokens repeated twice",
    # 12
    "lesson.limits.title": "What attention does not tell you",
    "lesson.limits.text": "A weight is not an explanation. Jain & Wallace (2019) found attention "
    "weights that could be changed a lot without changing the prediction; Wiegreffe & Pinter "
    "(2019) answered that it depends on the test. Kobayashi et al. (2020) measured what a key "
    "actually passes on, ‖α_ij f(x_j)‖: a large weight on a value vector of small norm moves "
    "little. Here is the pretrained MiniLM, layer {layer}, on your sentence.",
    "lesson.limits.q": "Is the token that receives the most attention weight also the one that "
    "receives the largest share of the value-weighted norms?",
    "lesson.limits.opt.same": "yes, the same token",
    "lesson.limits.opt.different": "no, a different token",
    "lesson.limits.explain": "By weight, {tw} receives the most: **{w}** of the attention on "
    "average, but only {w_norm} of the norms. By norm, {tn} receives the most: {n} (its weight "
    "share: {n_weight}).",
    "lesson.limits.explain_same": "{tw} receives the most both by weight, **{w}** of the attention "
    "on average, and by value-weighted norm, {w_norm}. The two measures differ token by token in "
    "the chart: a weight says how much a key is looked at, the norm how much it passes on.",
    "lesson.limits.fig": "What each token receives in layer {layer}: weight and value-norm share",
    "lesson.limits.weights": "weight",
    "lesson.limits.norms": "value-norm share",
}

ZH = {
    "nav.lesson": "课程：从这里开始",
    "lesson.title": "课程：12 站学会多头注意力",
    "lesson.intro": "每一站先提一个问题，**再**展示答案。回答之后，页面会在你的句子（侧边栏）上"
    "给出实时答案，并用屏幕上的数字解释。改变句子或设置，每个问题都会根据新的数字重新提出。",
    "lesson.station": "站点",
    "lesson.station_label": "{n}. {title}",
    "lesson.end_label": "总结",
    "lesson.quiz": "测验模式",
    "lesson.quiz_help": "用于课堂：回答之前不显示答案（“显示答案”按钮会消失）。",
    "lesson.prev": "← 上一站",
    "lesson.next": "下一站 →",
    "lesson.check": "检查我的答案",
    "lesson.show": "显示答案",
    "lesson.your_answer": "你的答案",
    "lesson.right": "正确。",
    "lesson.wrong": "这次不对：你选了 {chosen}；按这些数字，答案是 {answer}。",
    "lesson.skipped": "你选择了直接查看答案：{answer}。",
    "lesson.stale": "你是在其他设置或其他句子下回答这一站的。数字已经变了，所以那个答案不予评分："
    "请重新回答。",
    "lesson.hidden": "回答问题后即可看到实时答案。",
    "lesson.hidden_quiz": "测验模式：回答问题后即可看到实时答案。",
    "lesson.explore": "在“{page}”页面上探索",
    "lesson.explore_help": "以相同的句子和设置打开该页面。",
    "lesson.needs": "这一站需要你的输入所没有的东西：{why}",
    "lesson.needs_two": "至少两个词元。请在侧边栏再输入一个词。",
    "lesson.needs_text": "一个句子。请在侧边栏输入。",
    "lesson.unavailable": "这一站的模型无法在此加载（{error}）。",
    "lesson.token_option": "{i}: {token}",
    "lesson.token_at": "{token}（词元 {i}）",
    "lesson.bytes": "{n} 字节",
    "lesson.capped": "此图显示 {n} 个词元中的第 {a} 到第 {b} 个（最多 {limit} 个）；正文中的数字使用全部词元。",
    "lesson.attention": "注意力",
    "lesson.layer": "层",
    "lesson.head": "头",
    "lesson.share": "比例",
    "lesson.value": "值",
    "lesson.head_option": "头 {h}",
    "lesson.progress": "按屏幕上的数字已回答：{answered} / {total}；答对：{right}。",
    "lesson.teacher": "教师链接",
    "lesson.teacher_intro": "此链接会以当前的句子和设置、当前的测验模式、在这一站打开课程，且不带任何答案：",
    "lesson.end_title": "总结",
    "lesson.end_score": "按屏幕上的数字，你答对了 **{total} 题中的 {right} 题**。",
    "lesson.end_stale": "在其他设置下回答的（请重新回答）：{n}。",
    "lesson.end_revisit": "值得重温的站点：",
    "lesson.end_none": "没有需要重温的：每一站都答对了。",
    "lesson.end_status.right": "正确",
    "lesson.end_status.wrong": "错误",
    "lesson.end_status.shown": "已显示答案",
    "lesson.end_status.stale": "在其他设置下回答",
    "lesson.end_status.open": "未回答",
    "lesson.go": "前往第 {n} 站：{title}（{status}）",
    # 1
    "lesson.why.title": "为什么需要注意力",
    "lesson.why.text": "要读懂 “attention is not too shabby”，必须把 “not” 和 “shabby” 联系起来。"
    "最简单的做法是把各个词的值向量以相同权重（各 1/T）相加，仿佛每一对词都同样重要。Misha "
    "Laskin 关于多头注意力的推文串（第 5 条）这样说：朴素求和假定所有词之间的关系都相同。注意力则"
    "给每一对词各自的权重。",
    "lesson.why.q": "头 {h} 为词元 {q} 计算权重。它给哪个词元的权重最大？",
    "lesson.why.explain": "头 {h} 让 {q} 在 {top} 上的权重为 **{w}**；相同权重会给 {n} 个词元各 "
    "1/{n} = {u}，所以最大权重是平均份额的 {ratio} 倍。这一层是随机的（有种子、未训练）：训练好的"
    "模型会学到哪些词对重要。",
    "lesson.why.fig": "头 {h}，{q} 的权重：相同权重（1/T）对比注意力",
    # 2
    "lesson.qkv.title": "查询、键和值",
    "lesson.qkv.text": "每个词元的向量 x 被投影成三个向量：查询 q = x W_Q（它在找什么）、键 k = x "
    "W_K（它提供什么）和值 v = x W_V（它传递什么）。词元 i 用点积 q_i · k_j 给词元 j 打分：两个"
    "向量方向越一致，分数越大（Vaswani 等 2017，§3.2.1）。",
    "lesson.qkv.q": "在头 {h} 中，词元 {q} 给哪个键的分数 q · k 最高？",
    "lesson.qkv.explain": "在头 {h} 中，{q} 给 {top} 的分数最高：q · k = **{score}**{second}。"
    "这些是原始分数，在缩放和 softmax 之前。",
    "lesson.qkv.second": "；其次是 {top}，分数 {score}",
    "lesson.qkv.fig": "头 {h}：原始分数 q · k（行：查询，列：键）",
    # 3
    "lesson.scaling.title": "用 1/√d_k 缩放",
    "lesson.scaling.text": "如果 q 和 k 的分量相互独立、均值为 0、方差为 1，那么 q · k 的方差为 "
    "d_k（Vaswani 等 2017，§3.2.1，脚注 4）。分数太大时 softmax 接近独热，梯度几乎消失；所以分数"
    "除以标准差 √d_k，而不是方差 d_k——后者会随 d_k 增大把分数压得太小。",
    "lesson.scaling.q": "d_k 从 {lo} 变为 {hi}（大 4 倍）。q · k 的离散程度（标准差）大约增长多少？",
    "lesson.scaling.opt.1": "不变（×1）",
    "lesson.scaling.opt.2": "×2",
    "lesson.scaling.opt.4": "×4",
    "lesson.scaling.opt.16": "×16",
    "lesson.scaling.explain": "在 {n} 对随机向量上测量（种子 {seed}）：d_k = {lo} 时 std(q · k) "
    "为 {std_lo}，d_k = {hi} 时为 {std_hi}，比值 **{ratio}**，理论值 √({hi}/{lo}) = "
    "{sqrt_ratio}。方差增大 4 倍，离散程度只增大 2 倍：所以分数除以 √d_k。",
    "lesson.scaling.fig": "std(q · k) 随 d_k 的变化：测量值与 √d_k",
    # 4
    "lesson.softmax.title": "Softmax 与加权求和",
    "lesson.softmax.text": "softmax 把一行分数变成权重：每个权重是 e^分数 除以整行之和，所以权重为"
    "正、总和为 1，分数最高的得到最大权重。词元的输出是值向量的加权和。",
    "lesson.softmax.q": "在头 {h} 中，词元 {q} 给它权重最大的键多少权重？",
    "lesson.share.lt25": "小于 0.25",
    "lesson.share.25to50": "0.25 到 0.5",
    "lesson.share.50to75": "0.5 到 0.75",
    "lesson.share.gt75": "大于 0.75",
    "lesson.softmax.explain": "头 {h} 让 {q} 在它的首选键 {top} 上的权重为 **{w}**；这一行的和为 "
    "{total}。它的输出是 {w} × v({top}) 加上其他权重乘以各自的值。",
    "lesson.softmax.fig": "头 {h}：注意力权重（每行和为 1）",
    # 5
    "lesson.heads.title": "多个头",
    "lesson.heads.text": "多头注意力并排运行 h 个头，每个头有 d_k = d_model/h 维，把它们的输出拼接"
    "起来，再用 W_O 混合。h 个 d_model/h 维的头，计算量与一个全宽的头大致相同（Vaswani 等 2017，"
    "§3.2.2）：无论 h 是多少，投影都有 4 d_model² 个权重。各个头互不相同：有的看近处，有的看远处。",
    "lesson.heads.q": "哪个头看得最远：平均注意力距离（Σ_j w_ij |i − j|，以词元计，对所有查询取平均）"
    "最大？",
    "lesson.heads.explain": "头 {head} 的平均距离最大，为 **{dist}** 个词元；头 {near} 最小，为 "
    "{near_dist}。全部 {n_heads} 个头在 W_Q、W_K、W_V 和 W_O 中共用 {params} 个权重和偏置，在 "
    "d_model = {d_model} 时，头数不同，这个数也不变。{cost}",
    "lesson.heads.cost": "{n_heads} 个头的输出（每个词元 {n_heads} × {d_k} 个数）拼接后又是一个 "
    "{d_model} 维的向量，由 W_O（{d_model} × {d_model}）混合。对你的 {T} 个词元，它们的分数需要 "
    "{n_heads} × {T}² × {d_k} = {mults} 次乘法，与一个宽度为 {d_model} 的头相同（{T}² × {d_model}）。",
    "lesson.heads.fig": "每个头的权重",
    # 6
    "lesson.positional.title": "位置编码",
    "lesson.positional.text": "注意力本身不看顺序：没有位置编码时，打乱词序只会移动注意力矩阵的行和列"
    "（A' = P A Pᵀ）。Transformer 把 PE(pos, 2i) = sin(pos/10000^(2i/d_model)) 和 PE(pos, 2i+1) "
    "= cos(pos/10000^(2i/d_model)) 加到嵌入上（Vaswani 等 2017，§3.5）。",
    "lesson.positional.q": "在你的设置下（位置编码{pe}；掩码：{mask}），打乱你句子的词序。注意力会怎样？",
    "lesson.positional.on": "开",
    "lesson.positional.off": "关",
    "lesson.positional.opt.permute": "权重不变，只是随词移动（A' = P A Pᵀ）",
    "lesson.positional.opt.change": "权重本身改变",
    "lesson.positional.explain": "测量结果：所有头上 |A' − P A Pᵀ| 的最大值为 **{diff}**。{why}{plain}",
    "lesson.positional.plain": "没有位置编码、也没有掩码时，同样的打乱，|A' − P A Pᵀ| 的最大值为 {plain}（在 float32 舍入误差内为 0）："
    "权重只是移动了。",
    "lesson.positional.why_permute": "打乱只是移动了权重：没有位置信息时，注意力看到的是一组词，而不是一个序列。",
    "lesson.positional.why_change": "权重改变了：位置（位置编码，或与位置绑定的因果掩码）让顺序变得重要。",
    "lesson.positional.fig": "头 0：A'（打乱后的句子）与 P A Pᵀ（原句的权重，移动后）",
    # 7
    "lesson.mask.title": "解码器的掩码",
    "lesson.mask.text": "解码器一次生成一个词元，所以训练时词元 i 不能看到它后面的词元。因果掩码在 "
    "softmax 之前把这些分数设为 −∞（Vaswani 等 2017，§3.2.3），它们的权重因此恰好为 0。",
    "lesson.mask.q": "使用因果掩码时，第一个词元 {a} 给最后一个词元 {b} 多少权重？",
    "lesson.mask.opt.zero": "恰好为 0",
    "lesson.mask.opt.below": "大于 0 但小于 1/T",
    "lesson.mask.opt.above": "1/T 或更多",
    "lesson.mask.explain": "在因果掩码下，头 {h} 让 {a} 在 {b} 上的权重为 **{w}**；所有头对角线"
    "以上的最大权重为 {above}。第一个词元只能看到自己：它给自己的权重是 1。",
    "lesson.mask.fig": "头 {h}，使用因果掩码",
    # 8
    "lesson.addnorm.title": "残差与归一化（Add & Norm）",
    "lesson.addnorm.text": "每个子层的输出加上它的输入（残差连接）再归一化：LayerNorm(x + "
    "Sublayer(x))（Vaswani 等 2017，§3.1）。LayerNorm（Ba 等 2016）对每个词元在它自己的特征上归一化；"
    "BatchNorm（Ioffe 与 Szegedy 2015）对每个特征在一批词元上归一化。",
    "lesson.addnorm.q": "对你的句子取 x + attention(x)，做 LayerNorm（没有可学习的缩放和平移）。之后"
    "哪些均值为 0？",
    "lesson.addnorm.opt.token": "每个词元在其特征上的均值",
    "lesson.addnorm.opt.feature": "每个特征在所有词元上的均值",
    "lesson.addnorm.opt.both": "两者都是",
    "lesson.addnorm.opt.neither": "都不是",
    "lesson.addnorm.explain": "LayerNorm 之后的测量：词元在其特征上的均值，绝对值最大为 "
    "**{token_mean}**；特征在词元上的均值，绝对值最大为 **{feature_mean}**。LayerNorm 从不混合"
    "词元，所以无论一个词元还是一批，训练还是测试，它的做法都一样。{bn}",
    "lesson.addnorm.bn": "对同一个 x + attention(x) 做 BatchNorm 则正相反：特征在词元上的均值，"
    "绝对值最大为 {bn_feature_mean}（在 float32 舍入误差内为 0），而词元在其特征上的均值最大仍有 "
    "{bn_token_mean}。",
    "lesson.addnorm.fig": "LayerNorm 之后的 x + attention(x)（每行各自归一化）",
    # 9
    "lesson.transformer.title": "Transformer：编码器、解码器与交叉注意力",
    "lesson.transformer.text": "编码器用自注意力读源句；解码器先用带掩码的自注意力读目标句，再用交叉"
    "注意力：查询来自目标句，键和值来自编码器的输出（Vaswani 等 2017，§3.2.3）。这里源句是你的句子，"
    "目标句是 “{target}”，经过一个有种子、未训练的单层编码器-解码器。",
    "lesson.transformer.q": "在交叉注意力中（第 0 层，头 0），目标词元 {q} 给哪个源词元的权重最大？",
    "lesson.transformer.explain": "目标词元 {q} 给 {top} 的权重为 **{w}**。交叉注意力矩阵是 "
    "{n_tgt} × {n_src}：每个目标词元一行，每个源词元一列。",
    "lesson.transformer.fig": "交叉注意力，第 0 层，头 0（行：目标，列：源）",
    # 10
    "lesson.cost.title": "代价：O(T²)，以及今天的模型如何应对",
    "lesson.cost.text": "每个词元都要给每个词元打分：每个头 T² 个分数，时间和内存都是如此。生成时，"
    "模型保存所有已生成词元的键和值（KV 缓存），而不是重新计算。分组查询注意力让多个头共享键和值"
    "（Ainslie 等 2023），以缩小缓存；FlashAttention 分块计算精确的注意力，减少对 GPU 显存的读写，"
    "从不存下 T × T 矩阵（Dao 等 2022）。",
    "lesson.cost.q": "这个模型有一个注意力层，d_model = {d_model}，{n_heads} 个 d_k = {d_k} 的头，"
    "使用 float32（4 字节）。每个词元需要多少字节的 KV 缓存？",
    "lesson.cost.opt.c": "d_model × 4 = {value} 字节",
    "lesson.cost.opt.kv": "2 × d_model × 4 = {value} 字节",
    "lesson.cost.opt.kvt": "2 × d_model × 4 × T = {value} 字节",
    "lesson.cost.opt.w": "4 × d_model² × 4 = {value} 字节",
    "lesson.cost.explain": "每个词元每个头一个键和一个值：2 × {n_heads} 个头 × {d_k} × 4 字节 = "
    "每个词元 **{bytes}** 字节，你的 {T} 个词元共 {total}。对它们做一步普通注意力，分数占 {scores}"
    "（{n_heads} × T² × 4 字节）：这部分随 T² 增长。分组查询注意力把缓存除以共享同一个键/值头的头数："
    "若全部 {n_heads} 个头共享一个（多查询注意力），每个词元只需 {mqa} 字节（Ainslie 等 2023，§2.2）。"
    "FlashAttention 在 GPU 快速的片上内存中逐块计算同样的分数，从不把 T × T 矩阵写入显存：减少的是"
    "内存读写，而不是乘法次数（Dao 等 2022，§3.1）。",
    "lesson.cost.fig": "内存随词元数 T 的变化",
    "lesson.cost.kv": "KV 缓存（2 × d_model × 4 × T）",
    "lesson.cost.scores": "分数（头数 × T² × 4）",
    "lesson.cost.x": "词元数 T",
    "lesson.cost.y": "字节",
    # 11
    "lesson.real.title": "真实模型：注意力汇聚点与归纳头",
    "lesson.real.text": "在训练好的语言模型中，许多头把大量权重放在第一个词元上，不论它是什么，即"
    "“注意力汇聚点”（Xiao 等 2023，“Efficient Streaming Language Models with Attention Sinks”，"
    "§3.1）。有些头会复制：“归纳头”从一个词元回看同一词元上一次出现时紧随其后的那个词元，"
    "于是见过一次的序列可以被接着写下去（Olsson 等 2022，“In-context Learning and Induction "
    "Heads”）。这里是 SmolLM2-135M-Instruct（30 层 × 9 个头）先在你的句子上、再在一段重复两遍的"
    "随机序列上的表现。",
    "lesson.real.q": "对它的 270 个头取平均，最后一个词元的注意力有多大比例落在位置 0？",
    "lesson.real.explain": "在 {n} 个头上平均，句子的 {T} 个词元（SmolLM2 自己的词元）中最后一个把 **{share}** 的权重放在"
    "位置 0；{n} 个头中有 {over_half} 个在那里放了一半以上。",
    "lesson.real.fig": "最后一个词元在位置 0 上的权重比例，按层和头",
    "lesson.real.induction": "**一个归纳头。** 同一个模型在 {n} 个重复两遍的随机词元上（加上开头"
    "词元共 {T} 个；种子 {seed}）：在它的 {total} 个头中，第 {layer} 层第 {head} 个头的归纳分数最高。"
    "第二遍中的每个词元平均把 **{score}** 的权重放在它上一次出现时紧随其后的词元上（即 Olsson 等 "
    "2022 在重复随机词元上定义的分数）；若对能看到的每个词元权重相等，只有 {chance}。图中框出的是"
    "第二遍的行：这部分权重就是对角线左侧 {offset} 个词元处的那条斜线。",
    "lesson.real.fig_induction": "第 {layer} 层第 {head} 个头，在重复两遍的 {n} 个随机词元上",
    # 12
    "lesson.limits.title": "注意力没有告诉你的",
    "lesson.limits.text": "权重不等于解释。Jain 与 Wallace（2019）发现，注意力权重可以大幅改变而预测"
    "不变；Wiegreffe 与 Pinter（2019）回应说，这取决于如何检验。Kobayashi 等（2020）测量了一个键实际"
    "传递的量 ‖α_ij f(x_j)‖：权重大而值向量范数小，作用也小。这里是预训练的 MiniLM 第 {layer} 层在"
    "你的句子上的表现。",
    "lesson.limits.q": "得到注意力权重最多的词元，是否也得到最大份额的值加权范数？",
    "lesson.limits.opt.same": "是，同一个词元",
    "lesson.limits.opt.different": "不是，另一个词元",
    "lesson.limits.explain": "按权重，{tw} 得到的最多：平均 **{w}** 的注意力，但范数份额只有 "
    "{w_norm}。按范数，{tn} 得到的最多：{n}（它的权重份额：{n_weight}）。",
    "lesson.limits.explain_same": "无论按权重（平均 **{w}** 的注意力）还是按值加权范数（{w_norm}），"
    "{tw} 得到的都最多。图中两种度量逐个词元都不相同：权重说明一个键被看了多少，范数说明它传递了多少。",
    "lesson.limits.fig": "第 {layer} 层中每个词元得到的：权重与值范数份额",
    "lesson.limits.weights": "权重",
    "lesson.limits.norms": "值范数份额",
}
