module @jit_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1024x4096xf32>, %arg1: tensor<4096x1024xf32>, %arg2: tensor<256x1024xf32>, %arg3: tensor<256x1024xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<1024x4096xf32> {jax.result_info = "result[1]['w1']"}, tensor<4096x1024xf32> {jax.result_info = "result[1]['w2']"}) {
    %0 = stablehlo.dot_general %arg2, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<256x1024xf32>, tensor<1024x4096xf32>) -> tensor<256x4096xf32>
    %1 = call @relu(%0) : (tensor<256x4096xf32>) -> tensor<256x4096xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<256x4096xf32>
    %3 = stablehlo.compare GT, %0, %2, FLOAT : (tensor<256x4096xf32>, tensor<256x4096xf32>) -> tensor<256x4096xi1>
    %4 = stablehlo.dot_general %1, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<256x4096xf32>, tensor<4096x1024xf32>) -> tensor<256x1024xf32>
    %5 = stablehlo.subtract %4, %arg3 : tensor<256x1024xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<256x1024xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<256x1024xf32>
    %8 = stablehlo.multiply %7, %5 : tensor<256x1024xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [0, 1] : (tensor<256x1024xf32>, tensor<f32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<2.621440e+05> : tensor<f32>
    %10 = stablehlo.divide %9, %cst_2 : tensor<f32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_4 = stablehlo.constant dense<2.621440e+05> : tensor<f32>
    %11 = stablehlo.divide %cst_3, %cst_4 : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [] : (tensor<f32>) -> tensor<256x1024xf32>
    %13 = stablehlo.multiply %12, %8 : tensor<256x1024xf32>
    %14 = stablehlo.dot_general %13, %1, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<256x1024xf32>, tensor<256x4096xf32>) -> tensor<1024x4096xf32>
    %15 = stablehlo.transpose %14, dims = [1, 0] : (tensor<1024x4096xf32>) -> tensor<4096x1024xf32>
    %16 = stablehlo.dot_general %13, %arg1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<256x1024xf32>, tensor<4096x1024xf32>) -> tensor<256x4096xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<256x4096xf32>
    %18 = stablehlo.select %3, %16, %17 : tensor<256x4096xi1>, tensor<256x4096xf32>
    %19 = stablehlo.dot_general %18, %arg2, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<256x4096xf32>, tensor<256x1024xf32>) -> tensor<4096x1024xf32>
    %20 = stablehlo.transpose %19, dims = [1, 0] : (tensor<4096x1024xf32>) -> tensor<1024x4096xf32>
    %cst_6 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<1024x4096xf32>
    %22 = stablehlo.multiply %21, %20 : tensor<1024x4096xf32>
    %23 = stablehlo.subtract %arg0, %22 : tensor<1024x4096xf32>
    %cst_7 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4096x1024xf32>
    %25 = stablehlo.multiply %24, %15 : tensor<4096x1024xf32>
    %26 = stablehlo.subtract %arg1, %25 : tensor<4096x1024xf32>
    return %10, %23, %26 : tensor<f32>, tensor<1024x4096xf32>, tensor<4096x1024xf32>
  }
  func.func private @relu(%arg0: tensor<256x4096xf32>) -> tensor<256x4096xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<256x4096xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<256x4096xf32>
    return %1 : tensor<256x4096xf32>
  }
}
