"""The Step by step page.

The five steps are named as in most introductions to multi-head attention ("Linear Projections
for Q, K, V", "Scaled Dot-Product Attention", "Softmax and Weighted Sum", "Concatenation of
Heads", "Final Linear Projection" / 查询、键和值的线性投影, 缩放点积注意力, Softmax 与加权和,
注意力头的拼接, 最终线性投影), with the naive sum of values as the point of departure.

Markdown strings write math as $...$ (KaTeX). The display formulas (st.latex) are the same in
both languages, so they live in LATEX, not in EN/ZH; they are
str.format templates (literal braces doubled).
"""

EN = {
    "step.title": "Step by step: one head, one query",
    "step.intro": "Follow one head and one query token from the input (tab 0) through the "
    "five steps of multi-head attention (tabs 1 to 5), with the real numbers of the sentence and settings in the sidebar. Hover any "
    "cell for its exact value.",
    "step.random_note": "The weights are random (seed {seed}), not trained: the numbers show "
    "the arithmetic, not meaning.",
    "step.head": "Head h",
    "step.head_help": "Each head has its own projections $W_Q^h, W_K^h, W_V^h$ and works in "
    "its own d_k = {d_k} dimensions.",
    # the same in both languages: a selectbox keeps showing the text of its chosen option
    # after a language switch (Streamlit 1.67), so the options carry no words
    "step.head_option": "h = {h}",
    "step.query": "Query token i",
    "step.query_help": "The token whose row is followed (outlined) through the steps: where it "
    "looks, and what it receives.",
    "step.query_option": "{i}: {token}",
    "step.dims": "d_model dimensions shown",
    "step.dims_help": "d_model = {d_model} is too wide to draw at once: figures with a d_model "
    "axis show {window} dimensions at a time. Choosing a head moves this window to its block.",
    "step.dk_dims": "d_k dimensions shown",
    "step.dk_dims_help": "d_k = {d_k} is too wide to draw at once: figures with a d_k axis show "
    "{window} dimensions at a time.",
    "step.window_option": "{start}–{stop}",
    "step.window_note": "Cropped view: the d_model axis shows dimensions {start}–{stop} of "
    "{total}.",
    "step.dk_window_note": "Cropped view: the d_k axis shows dimensions {start}–{stop} of {total}.",
    "step.outline_note": "Outlined: the row of query {i} in every matrix with one row per token; "
    "in the concatenation and in $W_O$, the block of head {h}.",
    # step 0: input
    "step.view.0": "0 · Input X",
    "step.view.1": "1 · Q, K, V",
    "step.view.2": "2 · Scores",
    "step.view.3": "3 · Softmax and sum",
    "step.view.4": "4 · Concatenate",
    "step.view.5": "5 · Output",
    "step.next": "Next: {step} →",
    "step.s0.title": "0 · The input X",
    "step.s0.text": "Each row of $X$ is one token: its embedding $E$ (random, seeded) plus its "
    "positional encoding $PE$. Every head starts from the same $X$.",
    "step.s0.text_nope": "Each row of $X$ is one token's embedding $E$ (random, seeded). "
    "Positional encoding is off in the sidebar, so $X = E$. Every head starts from the same $X$.",
    "step.s0.shapes": "Shape: $X$ is $T \\times d_{{model}}$ = {T} × {C}.",
    "step.s0.parts": "The two parts: E and PE",
    # step 1: projections
    "step.s1.title": "1 · Linear projections for Q, K, V",
    "step.s1.text": "For each head, the model applies different linear projections to get its "
    "queries, keys and values. These projections are learned during training and let each head "
    "focus on different aspects of the input.",
    "step.s1.convention": "Many textbooks use column vectors, $q = W x$, where their $W$ is "
    "the transpose of the $W_Q^h$ here. With one row per token the same product reads $Q_h = X "
    "W_Q^h$: $W_Q^h$ is the block of columns {start}–{stop} of $W_Q$ that belongs to head {h}.",
    "step.s1.shapes": "Shapes: $X$ ({T} × {C}) · $W_Q^h$ ({C} × {d_k}) → $Q_h$ ({T} × {d_k}); "
    "the same for $K_h$ and $V_h$.",
    "step.s1.bias_zero": "The biases $b_Q^h, b_K^h, b_V^h$ are 0 here (they start at zero).",
    "step.s1.bias": "The biases $b_Q^h, b_K^h, b_V^h$ are added to every row.",
    "step.s1.rows": "Outlined in $Q_h$: the query row i = {i}. All rows of $K_h$ and $V_h$ are "
    "used, one per key.",
    # step 2: scores
    "step.s2.title": "2 · Scaled dot-product attention: the scores",
    "step.s2.title_additive": "2 · Attention scores: additive scoring",
    "step.s2.title_unscaled": "2 · Dot-product attention, unscaled: the scores",
    "step.s2.text": "For each head, the dot product between queries and keys gives the "
    "attention scores: entry (i, j) says how well query i matches key j. They are divided by "
    "the square root of the key dimension: dot products spread more as it grows, and large "
    "scores saturate the softmax, where its gradients vanish (Vaswani et al. 2017, §3.2.1).",
    "step.s2.sqrt": "With d_k = {d_k}: $\\sqrt{{d_k}}$ = {sqrt_dk}, so each score is multiplied "
    "by {factor}.",
    "step.s2.noscale": "Scaling is off in the sidebar: the scores go on undivided (try it and "
    "watch the softmax saturate on the Scaling lab page).",
    "step.s2.temperature": "A softmax temperature of {temperature} also divides the scores.",
    "step.s2.shapes": "Shapes: $Q_h$ ({T} × {d_k}) · $K_h^\\top$ ({d_k} × {T}) → scores "
    "({T} × {T}).",
    "step.s2.additive_text": "The scoring function is additive (Bahdanau): a small network "
    "scores each query-key pair with its own parameters $W_q^h, W_k^h$ ({d_k} × {d_k}) and "
    "$v_h$ ({d_k}), instead of the dot product.",
    "step.s2.additive_noscale": "The $1/\\sqrt{{d_k}}$ factor is not applied to additive "
    "scores. The score $v_h^\\top \\tanh(\\cdot)$ is a sum of d_k terms, each bounded since "
    "tanh lies in [-1, 1], so it could grow with d_k; what keeps it of order 1 is the "
    "initialisation of $v_h$, uniform in ±1/√d_k here.",
    "step.s2.additive_shapes": "Shapes: for query i, $q_i W_q^h$ (1 × {d_k}) + $K_h W_k^h$ "
    "({T} × {d_k}) → tanh → · $v_h$ ({d_k}) → one row of scores (1 × {T}); all rows: "
    "{T} × {T}.",
    "step.s2.additive_parts": "The additive scorer of head {h}, and query {i}'s features",
    "step.s2.additive_features_note": "Row j of the features is tanh($q_i W_q^h + k_j W_k^h$); "
    "its product with $v_h$ is the score of query i for key j.",
    "step.mask.title": "The mask",
    "step.mask.causal": "Causal mask: query i may only look at keys j ≤ i. Scores above the "
    "diagonal become −∞ (empty cells), so the softmax gives them weight exactly 0.",
    "step.mask.none": "No mask: every query may look at every key, so the scores go to the "
    "softmax unchanged.",
    # step 3: softmax and weighted sum
    "step.s3.title": "3 · Softmax and weighted sum",
    "step.s3.text": "The scores are passed through a softmax, row by row, to obtain the attention "
    "weights $\\alpha_h$; they are applied to the values to produce the output of the head.",
    "step.s3.shapes": "Shapes: $\\alpha_h$ ({T} × {T}) · $V_h$ ({T} × {d_k}) → "
    "$\\text{{output}}_h$ ({T} × {d_k}).",
    "step.s3.row_sum": "Row {i} of $\\alpha_h$ sums to **{total}** (every row sums to 1).",
    "step.s3.table": "Query {i}'s row through the steps, one line per key (exact values)",
    "step.s3.col.raw": "score",
    "step.s3.col.scaled": "scaled",
    "step.s3.col.masked": "masked",
    "step.s3.col.weight": "weight α",
    "step.s3.col.key": "key j",
    # naive summation
    "step.naive.title": "Before attention: a naive average of values",
    "step.naive.text": "A first idea before attention: pass the words through a linear layer "
    "(the values $V_h$) and mix them by summing them (here averaged: the sum divided by the "
    "number of keys). But a naive sum or average of values assumes the "
    "relationships between all words are equal: in the course's example “attention is not too shabby” the "
    "relationship between “is” and “too” would count as much as the one between “not” and "
    "“shabby”. Attention instead weighs each relation by how well query i matches key j.",
    "step.naive.detail": "Here query i = {i} may look at $|A_i|$ = {n} keys (the set "
    "$A_i$). Naive, $\\bar{{v}}_i$: each gets weight 1/{n} (a plain sum is {n} times this average). Attention, $\\text{{output}}_{{h,i}}$: the weights of "
    "row {i} of $\\alpha_h$.",
    "step.naive.distance": "Distance between the two vectors: ‖naive − attention‖ = {dist}.",
    "step.naive.uniform": "naive (all equal)",
    "step.naive.attention": "attention α",
    "step.naive.rows_naive": "naive average",
    "step.naive.rows_attention": "attention sum",
    # step 4: concatenation
    "step.s4.title": "4 · Concatenation of heads",
    "step.s4.text": "After the attention mechanism is applied for each head, the outputs from all "
    "heads are concatenated side by side: head {h} fills columns {start}–{stop}.",
    "step.s4.window": "Shown: columns {start}–{stop}; head {h}'s block, columns {h0}–{h1}, is outlined.",
    "step.s4.window_part": "Shown: columns {start}–{stop}; head {h}'s block is columns {h0}–{h1} (outlined where it is in this window: move the dimension window to see all of it).",
    "step.s4.shapes": "Shapes: {n_heads} heads × ({T} × {d_k}) → MultiHeadOutput ({T} × {C}).",
    # step 5: final projection
    "step.s5.title": "5 · Final linear projection",
    "step.s5.text": "The concatenated output is passed through a final linear transformation "
    "$W_O$ to combine the results of the different heads into a single representation. The "
    "outlined rows of $W_O$ are the ones that multiply head {h}'s block: every output dimension "
    "mixes all heads.",
    "step.s5.convention": "With column vectors many textbooks write $W \\cdot "
    "\\text{{MultiHeadOutput}}$, where their $W$ is the transpose of the $W_O$ here; with one "
    "row per token it reads $\\text{{MultiHeadOutput}}\\, W_O + b_O$.",
    "step.s5.window": "The $W_O$ chart shows rows {r0}–{r1} (head {h}'s block, rows {h0}–{h1}, is outlined) and columns {c0}–{c1}, the output dimensions shown beside it.",
    "step.s5.shapes": "Shapes: MultiHeadOutput ({T} × {C}) · $W_O$ ({C} × {C}) → FinalOutput "
    "({T} × {C}).",
    "step.s5.done": "FinalOutput is exactly what the layer returns: these pieces, put together, "
    "give the layer's own output.",
    # figure titles and axes
    "step.fig.x": "X ({T} × {C})",
    "step.fig.e": "E: token embeddings",
    "step.fig.pe": "PE: positional encoding",
    "step.fig.w": "{name} of head {h} ({rows} × {cols})",
    "step.fig.qkv": "{name} ({T} × {d_k})",
    "step.fig.scores": "Scores Q_h K_h^T ({T} × {T})",
    "step.fig.scores_additive": "Additive scores ({T} × {T})",
    "step.fig.scaled": "Scaled: scores × {factor}",
    "step.fig.masked": "Masked scores (empty = −∞)",
    "step.fig.weights": "α_h = softmax, row by row",
    "step.fig.head_output": "output_h = α_h V_h ({T} × {d_k})",
    "step.fig.additive_w": "{name} of head {h} ({d_k} × {d_k})",
    "step.fig.additive_v": "v_h of head {h} ({d_k})",
    "step.fig.features": "tanh features of query {i} ({T} × {d_k})",
    "step.fig.naive_weights": "Weights of query {i}: naive against attention",
    "step.fig.naive_vectors": "What query {i} receives ({d_k} dimensions)",
    "step.fig.concat": "MultiHeadOutput = concat ({T} × {C})",
    "step.fig.w_o": "W_O ({C} × {C})",
    "step.fig.output": "FinalOutput ({T} × {C})",
    "step.axis.token": "token",
    "step.axis.query": "query",
    "step.axis.key": "key",
    "step.axis.dim": "dimension",
    "step.axis.in_dim": "input dimension",
    "step.axis.out_dim": "output dimension",
    "step.axis.vector": "vector",
    "step.value": "value",
    "step.score": "score",
    "step.weight": "weight",
}

ZH = {
    "step.title": "逐步计算:一个头,一个查询",
    "step.intro": "用侧边栏中句子和设置的真实数值,跟随一个头和一个查询词元,从输入 (第 0 个标签页) 出发,走完多头注意力的五个步骤 (第 1 到 5 个标签页)。"
    "把鼠标悬停在任意格子上即可看到精确数值。",
    "step.random_note": "权重是随机的 (种子 {seed}),没有经过训练:数值展示的是计算过程,而不是语义。",
    "step.head": "头 h",
    "step.head_help": "每个头都有自己的投影 $W_Q^h, W_K^h, W_V^h$,并在自己的 d_k = {d_k} 维中计算。",
    "step.head_option": "h = {h}",
    "step.query": "查询词元 i",
    "step.query_help": "在各个步骤中被跟踪 (加框) 的那一行对应的词元:它关注哪里,又得到什么。",
    "step.query_option": "{i}: {token}",
    "step.dims": "显示的 d_model 维度",
    "step.dims_help": "d_model = {d_model} 太宽,无法一次画出:带 d_model 轴的图每次显示 {window} 个维度。"
    "选择一个头会把这个窗口移到它的那一块。",
    "step.dk_dims": "显示的 d_k 维度",
    "step.dk_dims_help": "d_k = {d_k} 太宽,无法一次画出:带 d_k 轴的图每次显示 {window} 个维度。",
    "step.window_option": "{start}–{stop}",
    "step.window_note": "裁剪视图:d_model 轴显示第 {start}–{stop} 维 (共 {total} 维)。",
    "step.dk_window_note": "裁剪视图:d_k 轴显示第 {start}–{stop} 维 (共 {total} 维)。",
    "step.outline_note": "加框部分:在每个“每个词元一行”的矩阵中,是查询 {i} 的那一行;"
    "在拼接结果和 $W_O$ 中,是头 {h} 的那一块。",
    "step.view.0": "0 · 输入 X",
    "step.view.1": "1 · Q、K、V",
    "step.view.2": "2 · 得分",
    "step.view.3": "3 · Softmax 与求和",
    "step.view.4": "4 · 拼接",
    "step.view.5": "5 · 输出",
    "step.next": "下一步:{step} →",
    "step.s0.title": "0 · 输入 X",
    "step.s0.text": "$X$ 的每一行是一个词元:它的词向量 $E$ (随机,有种子) 加上它的位置编码 $PE$。"
    "所有头都从同一个 $X$ 出发。",
    "step.s0.text_nope": "$X$ 的每一行是一个词元的词向量 $E$ (随机,有种子)。侧边栏中关闭了位置编码,"
    "所以 $X = E$。所有头都从同一个 $X$ 出发。",
    "step.s0.shapes": "形状:$X$ 为 $T \\times d_{{model}}$ = {T} × {C}。",
    "step.s0.parts": "两个组成部分:E 与 PE",
    "step.s1.title": "1 · 查询、键和值的线性投影",
    "step.s1.text": "对于每个头,模型应用不同的线性投影,得到它的查询、键和值。"
    "这些投影在训练过程中被学习,允许每个头关注输入序列的不同方面。",
    "step.s1.convention": "许多教材用列向量,写作 $q = W x$,其中的 $W$ 是这里 $W_Q^h$ 的转置。每"
    "个词元一行时,同一个乘积写作 $Q_h = X W_Q^h$:$W_Q^h$ 是 $W_Q$ 中属于头 {h} 的第 {start}–"
    "{stop} 列。",
    "step.s1.shapes": "形状:$X$ ({T} × {C}) · $W_Q^h$ ({C} × {d_k}) → $Q_h$ ({T} × {d_k});"
    "$K_h$ 和 $V_h$ 同理。",
    "step.s1.bias_zero": "这里的偏置 $b_Q^h, b_K^h, b_V^h$ 为 0 (初始值为零)。",
    "step.s1.bias": "偏置 $b_Q^h, b_K^h, b_V^h$ 加到每一行上。",
    "step.s1.rows": "$Q_h$ 中加框的是查询行 i = {i}。$K_h$ 和 $V_h$ 的所有行都会用到,每个键一行。",
    "step.s2.title": "2 · 缩放点积注意力:得分",
    "step.s2.title_additive": "2 · 注意力得分:加性注意力",
    "step.s2.title_unscaled": "2 · 点积注意力(未缩放):得分",
    "step.s2.text": "对于每个头,计算查询与键之间的点积以确定注意力得分:第 (i, j) 项表示查询 i "
    "与键 j 的匹配程度。得分除以键向量维度的平方根:点积随维度增大,而过大的得分会使 softmax 饱和"
    ",梯度随之消失 (Vaswani 等 2017,§3.2.1)。",
    "step.s2.sqrt": "d_k = {d_k}:$\\sqrt{{d_k}}$ = {sqrt_dk},所以每个得分乘以 {factor}。",
    "step.s2.noscale": "侧边栏中关闭了缩放:得分不做除法 (可在“缩放实验”页面观察 softmax 如何饱和)。",
    "step.s2.temperature": "softmax 温度 {temperature} 也会除以得分。",
    "step.s2.shapes": "形状:$Q_h$ ({T} × {d_k}) · $K_h^\\top$ ({d_k} × {T}) → 得分 ({T} × {T})。",
    "step.s2.additive_text": "评分函数是加性注意力 (Bahdanau):用一个小网络为每一对查询和键打分,"
    "它有自己的参数 $W_q^h, W_k^h$ ({d_k} × {d_k}) 和 $v_h$ ({d_k}),取代点积。",
    "step.s2.additive_noscale": "加性得分不乘 $1/\\sqrt{{d_k}}$。得分 $v_h^\\top \\tanh(\\cdot)$ 是"
    " d_k 项之和,tanh 在 [-1, 1] 内,每一项都有界,但总和可能随 d_k 增大;让它保持在 1 的量级的是 "
    "$v_h$ 的初始化,这里在 ±1/√d_k 内均匀取值。",
    "step.s2.additive_shapes": "形状:对查询 i,$q_i W_q^h$ (1 × {d_k}) + $K_h W_k^h$ ({T} × {d_k}) "
    "→ tanh → · $v_h$ ({d_k}) → 一行得分 (1 × {T});所有行:{T} × {T}。",
    "step.s2.additive_parts": "头 {h} 的加性打分器,以及查询 {i} 的特征",
    "step.s2.additive_features_note": "特征的第 j 行是 tanh($q_i W_q^h + k_j W_k^h$);"
    "它与 $v_h$ 的乘积就是查询 i 对键 j 的得分。",
    "step.mask.title": "掩码",
    "step.mask.causal": "因果掩码:查询 i 只能看到 j ≤ i 的键。对角线以上的得分变为 −∞ (空白格子),"
    "因此 softmax 给它们的权重恰好为 0。",
    "step.mask.none": "无掩码:每个查询都能看到所有键,得分原样进入 softmax。",
    "step.s3.title": "3 · Softmax 与加权和",
    "step.s3.text": "将得分逐行通过 softmax 函数以获得注意力权重 $\\alpha_h$,"
    "并将这些权重应用于相应的值,以生成该头的输出。",
    "step.s3.shapes": "形状:$\\alpha_h$ ({T} × {T}) · $V_h$ ({T} × {d_k}) → "
    "$\\text{{output}}_h$ ({T} × {d_k})。",
    "step.s3.row_sum": "$\\alpha_h$ 的第 {i} 行之和为 **{total}** (每一行之和都为 1)。",
    "step.s3.table": "查询 {i} 的这一行在各步骤中的数值,每个键一行 (精确值)",
    "step.s3.col.raw": "得分",
    "step.s3.col.scaled": "缩放后",
    "step.s3.col.masked": "掩码后",
    "step.s3.col.weight": "权重 α",
    "step.s3.col.key": "键 j",
    "step.naive.title": "注意力之前:值的朴素平均",
    "step.naive.text": "注意力之前的第一个想法:把词通过一个线性层 (得到值 $V_h$),再通过求和把它们混合起来"
    "(这里取平均:和除以键的个数)。"
    "但值的朴素求和或平均假设所有词之间的关系都相同:在课程的例句 “attention is not too shabby” 中,"
    "“is” 与 “too” 之间的关系会和 “not” 与 “shabby” 之间的关系一样重要。"
    "注意力则按照查询 i 与键 j 的匹配程度为每个关系加权。",
    "step.naive.detail": "这里查询 i = {i} 可以看到 $|A_i|$ = {n} 个键 (集合 $A_i$)。"
    "朴素平均 $\\bar{{v}}_i$:每个键的权重为 1/{n} "
    "(直接求和是这个平均值的 {n} 倍)。注意力 $\\text{{output}}_{{h,i}}$:$\\alpha_h$ 第 {i} 行的权重。",
    "step.naive.distance": "两个向量之间的距离:‖朴素 − 注意力‖ = {dist}。",
    "step.naive.uniform": "朴素 (全部相等)",
    "step.naive.attention": "注意力 α",
    "step.naive.rows_naive": "朴素平均",
    "step.naive.rows_attention": "注意力加权和",
    "step.s4.title": "4 · 注意力头的拼接",
    "step.s4.text": "在每个头应用注意力机制后,将所有头的输出并排拼接在一起:头 {h} 占据第 {start}–{stop} 列。",
    "step.s4.window": "图中显示第 {start}–{stop} 列;头 {h} 的那一块(第 {h0}–{h1} 列)加了框。",
    "step.s4.window_part": "图中显示第 {start}–{stop} 列;头 {h} 的那一块是第 {h0}–{h1} 列(在此窗口内的部分加框:移动维度窗口可看到全部)。",
    "step.s4.shapes": "形状:{n_heads} 个头 × ({T} × {d_k}) → MultiHeadOutput ({T} × {C})。",
    "step.s5.title": "5 · 最终线性投影",
    "step.s5.text": "拼接后的输出通过一个最终的线性变换 $W_O$,合并不同头的结果,生成一个单一的表示。"
    "$W_O$ 中加框的行与头 {h} 的那一块相乘:每个输出维度都混合了所有头。",
    "step.s5.convention": "许多教材用列向量写作 $W \\cdot \\text{{MultiHeadOutput}}$,其中的 $W$ "
    "是这里 $W_O$ 的转置;每个词元一行时写作 $\\text{{MultiHeadOutput}}\\, W_O + b_O$。",
    "step.s5.window": "$W_O$ 图显示第 {r0}–{r1} 行(头 {h} 的那一块,第 {h0}–{h1} 行,加了框)和第 {c0}–{c1} 列,即旁边所示的输出维度。",
    "step.s5.shapes": "形状:MultiHeadOutput ({T} × {C}) · $W_O$ ({C} × {C}) → FinalOutput ({T} × {C})。",
    "step.s5.done": "FinalOutput 正是该层返回的结果:把这些部分组合起来,就得到该层自己的输出。",
    "step.fig.x": "X ({T} × {C})",
    "step.fig.e": "E:词元的词向量",
    "step.fig.pe": "PE:位置编码",
    "step.fig.w": "头 {h} 的 {name} ({rows} × {cols})",
    "step.fig.qkv": "{name} ({T} × {d_k})",
    "step.fig.scores": "得分 Q_h K_h^T ({T} × {T})",
    "step.fig.scores_additive": "加性得分 ({T} × {T})",
    "step.fig.scaled": "缩放后:得分 × {factor}",
    "step.fig.masked": "掩码后的得分 (空白 = −∞)",
    "step.fig.weights": "α_h = 逐行 softmax",
    "step.fig.head_output": "output_h = α_h V_h ({T} × {d_k})",
    "step.fig.additive_w": "头 {h} 的 {name} ({d_k} × {d_k})",
    "step.fig.additive_v": "头 {h} 的 v_h ({d_k})",
    "step.fig.features": "查询 {i} 的 tanh 特征 ({T} × {d_k})",
    "step.fig.naive_weights": "查询 {i} 的权重:朴素求和与注意力对比",
    "step.fig.naive_vectors": "查询 {i} 得到的向量 ({d_k} 维)",
    "step.fig.concat": "MultiHeadOutput = 拼接 ({T} × {C})",
    "step.fig.w_o": "W_O ({C} × {C})",
    "step.fig.output": "FinalOutput ({T} × {C})",
    "step.axis.token": "词元",
    "step.axis.query": "查询",
    "step.axis.key": "键",
    "step.axis.dim": "维度",
    "step.axis.in_dim": "输入维度",
    "step.axis.out_dim": "输出维度",
    "step.axis.vector": "向量",
    "step.value": "数值",
    "step.score": "得分",
    "step.weight": "权重",
}

# Names of the matrices in figure titles: notation, the same in both languages.
SYMBOLS = {
    "w_q": "W_Q^h",
    "w_k": "W_K^h",
    "w_v": "W_V^h",
    "q": "Q_h",
    "k": "K_h",
    "v": "V_h",
    "add_q": "W_q^h",
    "add_k": "W_k^h",
    "add_v": "v_h",
}

# Display formulas (st.latex), the same in both languages.
LATEX = {
    "x_pe": r"X = E + PE \in \mathbb{{R}}^{{T \times d_{{model}}}}",
    "x": r"X = E \in \mathbb{{R}}^{{T \times d_{{model}}}}",
    "proj": r"\begin{{gathered}} Q_h = X W_Q^h + b_Q^h, \quad K_h = X W_K^h + b_K^h \\"
    r" V_h = X W_V^h + b_V^h \\ W_Q^h, W_K^h, W_V^h \in \mathbb{{R}}^{{d_{{model}} \times d_k}}"
    r" \end{{gathered}}",
    "score": r"\text{{score}}(Q_h, K_h) = \frac{{Q_h K_h^\top}}{{\sqrt{{d_k}}}}"
    r" = \frac{{Q_h K_h^\top}}{{\sqrt{{{d_k}}}}}",
    "score_noscale": r"\text{{score}}(Q_h, K_h) = Q_h K_h^\top",
    "score_temperature": r"\text{{score}}(Q_h, K_h) = \frac{{Q_h K_h^\top}}{{\sqrt{{d_k}}\,\tau}}"
    r", \quad \tau = {temperature}",
    "additive": r"\text{{score}}(q_i, k_j) = v_h^\top \tanh\left(q_i W_q^h + k_j W_k^h\right)",
    "mask_causal": r"\text{{score}}_{{ij}} \leftarrow -\infty \quad (j > i)",
    "softmax": r"\begin{{gathered}} \alpha_h = \text{{softmax}}\left(\frac{{Q_h K_h^\top}}"
    r"{{\sqrt{{d_k}}}}\right) \\ \text{{output}}_h = \alpha_h V_h \end{{gathered}}",
    "softmax_generic": r"\begin{{gathered}} \alpha_{{h,ij}} = \frac{{e^{{\text{{score}}_{{ij}}}}}}"
    r"{{\sum_{{j'}} e^{{\text{{score}}_{{ij'}}}}}} \\ \text{{output}}_h = \alpha_h V_h"
    r" \end{{gathered}}",
    "naive": r"\begin{{gathered}} \bar{{v}}_i = \frac{{1}}{{|A_i|}} \sum_{{j \in A_i}} v_j"
    r" \\ \text{{output}}_{{h,i}} = \sum_{{j \in A_i}} \alpha_{{h,ij}}\, v_j \end{{gathered}}",
    "concat": r"\begin{{gathered}} \text{{MultiHeadOutput}} = \text{{concat}}(\text{{output}}_0,"
    r" \text{{output}}_1, \dots, \text{{output}}_{{{last}}}) \\"
    r" \text{{MultiHeadOutput}} \in \mathbb{{R}}^{{T \times d_{{model}}}} \end{{gathered}}",
    "final": r"\begin{{gathered}} \text{{FinalOutput}} = \text{{MultiHeadOutput}}\, W_O + b_O"
    r" \\ W_O \in \mathbb{{R}}^{{d_{{model}} \times d_{{model}}}} \end{{gathered}}",
}


def latex(name: str, **kwargs) -> str:
    """A display formula, with any numbers filled in."""
    return LATEX[name].format(**kwargs)
