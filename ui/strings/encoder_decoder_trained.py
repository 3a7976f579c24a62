"""The Encoder-decoder page on the model trained on the Train page
(ui/sections/encoder_decoder_trained.py)."""

EN = {
    "encoder_decoder.weights": "Model",
    "encoder_decoder.weights.seeded": "Seeded (this page's settings)",
    "encoder_decoder.weights.trained": "Trained on the Train page",
    "encoder_decoder.trained_none": "No model has been trained on the Train page in this "
    "session yet: train one there, then come back to see its attention here. Showing the seeded "
    "model.",
    "encoder_decoder.trained_intro": "The model trained on the Train page: task "
    "**{task}**, {steps} steps, d_model = {d_model}, {n_heads} heads, {n_layers} layer(s). On "
    "the task's probe `{probe}` it answers `{answer}` (the right answer: `{expected}`); the "
    "decoder rows read that answer as it was produced, as in greedy decoding.",
    "encoder_decoder.trained_note": "Its tokens are the task's symbols, not the sidebar's "
    "sentence, and its size is the Train page's: the sidebar's settings and the parts below the "
    "attention (padding, Add & Norm, dropout) belong to the seeded model. Where the seeded "
    "model's cross-attention shows no alignment, a model trained to reverse draws an "
    "anti-diagonal.",
}

ZH = {
    "encoder_decoder.weights": "模型",
    "encoder_decoder.weights.seeded": "随机初始化（本页设置）",
    "encoder_decoder.weights.trained": "在训练页面上训练的",
    "encoder_decoder.trained_none": "本次会话中还没有在训练页面上训练过模型：先去那里训练一个，"
    "再回来看它的注意力。现在显示的是随机初始化的模型。",
    "encoder_decoder.trained_intro": "在训练页面上训练的模型：任务 **{task}**，{steps} 步，"
    "d_model = {d_model}，{n_heads} 个头，{n_layers} 层。对任务的探针 `{probe}`，它的回答是 "
    "`{answer}`（正确答案：`{expected}`）；解码器的各行读取的就是逐步生成的这个回答，和贪心解码时一样。",
    "encoder_decoder.trained_note": "它的词元是任务的符号，而不是侧栏中的句子，大小也由训练页面决定："
    "侧栏的设置以及注意力之外的部分（填充、Add & Norm、dropout）属于随机初始化的模型。随机模型的交叉"
    "注意力看不出对齐，而训练来做反转的模型会画出一条反对角线。",
}
